// What our pages may do beyond showing themselves: navigate (only to our own
// pages), open windows (never; https links the person clicked go to their
// browser), and use device permissions (none).

/** Ways Chromium asks to open a window (Electron's `HandlerDetails.disposition`). */
export type WindowOpenDisposition = 'default' | 'foreground-tab' | 'background-tab' | 'new-window' | 'other';

/** The URL to hand to `shell.openExternal`, or null: only well-formed https URLs leave the app. */
export function externalHttpsUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' || parsed.hostname === '') return null;
  // Credentials in a link are a phishing trick, not something a person means to follow.
  if (parsed.username !== '' || parsed.password !== '') return null;
  return parsed.href;
}

/**
 * `setWindowOpenHandler`: the window is always denied. A link the person
 * followed (`<a target="_blank">`, or with a modifier key: a foreground or
 * background tab) opens in their browser when it is https; scripted popups
 * (`new-window`, `other`) open nothing.
 */
export function windowOpenDecision(details: { url: string; disposition: string }): {
  action: 'deny';
  openExternally: string | null;
} {
  const linkLike = details.disposition === 'foreground-tab' || details.disposition === 'background-tab';
  return { action: 'deny', openExternally: linkLike ? externalHttpsUrl(details.url) : null };
}

/** `will-navigate`: a page may only navigate to one of our own pages (e.g. reloading the entry page). */
export function isNavigationAllowed(url: string, isTrustedPageUrl: (url: string) => boolean): boolean {
  return isTrustedPageUrl(url);
}

/**
 * Permission requests and checks (camera, notifications, clipboard read,
 * geolocation, …): none is granted. The app needs none of them from the web
 * platform; anything it needs goes through the bridge.
 */
export function isPermissionGranted(_permission: string): boolean {
  return false;
}

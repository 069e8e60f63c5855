// What our pages may do beyond showing themselves: navigate (only to our own
// pages), open windows (never; links the person clicked to a server they signed
// in to go to their browser), and use device permissions (none).
import { parsedUrl } from './parsed-url';

/** Ways Chromium asks to open a window (Electron's `HandlerDetails.disposition`). */
export type WindowOpenDisposition = 'default' | 'foreground-tab' | 'background-tab' | 'new-window' | 'other';

/**
 * The URL to hand to `shell.openExternal` for a link in our pages, or null: a
 * page of a server the person signed in to (`origins`: its API's and its
 * sign-in server's), never any other site. A teammate's text can carry any
 * link, and the OS opens whatever it is given with the person's browser and
 * cookies; so scheme checks alone are not enough. The app has no help pages
 * of its own yet; their origin joins this list when it has.
 */
export function openableLink(url: string, origins: readonly string[]): string | null {
  const parsed = urlWithoutCredentials(url);
  if (parsed === null) return null;
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return origins.includes(parsed.origin) ? parsed.href : null;
}

/** `url` parsed; null when it does not parse or carries a user name or password (never handed to the OS). */
export function urlWithoutCredentials(url: string): URL | null {
  const parsed = parsedUrl(url);
  if (parsed === null) return null;
  return parsed.username === '' && parsed.password === '' ? parsed : null;
}

/** The origins of servers' addresses (an account's API and sign-in server); unparsable ones left out. */
export function originsOf(addresses: Iterable<string>): string[] {
  const origins = new Set<string>();
  for (const address of addresses) {
    // Not an address: nothing of it is opened.
    const parsed = parsedUrl(address);
    if (parsed !== null) origins.add(parsed.origin);
  }
  return [...origins];
}

/**
 * `setWindowOpenHandler`: the window is always denied. A link the person
 * followed (`<a target="_blank">`, or with a modifier key: a foreground or
 * background tab) opens in their browser when it is a page of a server they
 * signed in to (openableLink); scripted popups (`new-window`, `other`) open nothing.
 */
export function windowOpenDecision(
  details: { url: string; disposition: string },
  origins: readonly string[],
): {
  action: 'deny';
  openExternally: string | null;
} {
  const linkLike = details.disposition === 'foreground-tab' || details.disposition === 'background-tab';
  return { action: 'deny', openExternally: linkLike ? openableLink(details.url, origins) : null };
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

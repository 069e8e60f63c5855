// The Content-Security-Policy of our pages, sent as a response header by main
// and written into renderer/index.html's <meta> by ./csp-meta-plugin.ts (the
// packaged policy in the build, the dev policy under the dev server).
//
// Styles: no 'unsafe-inline' in the packaged app. Vite's build emits CSS files,
// and React's `style` prop (TanStack Virtual's row offsets) goes through the
// CSSOM, which CSP does not govern; so nothing we ship needs inline <style> or
// style="" markup, and refusing them closes CSS-injection tricks (attribute
// selectors that leak text).
//
// Why dev differs: under `electron-vite dev` the page comes from Vite's dev
// server, which injects CSS as <style> elements and, through
// @vitejs/plugin-react, an inline module script (the React Refresh preamble)
// that must run before the app's modules. So the dev policy allows inline
// style and script. It is only ever used for the dev server's origin on this
// computer (main picks it only when ELECTRON_RENDERER_URL is set and the app is
// not packaged); `npm start`, the e2e host and the packaged app get the strict one.

export type CspDirectives = Readonly<Record<string, readonly string[]>>;

/** The policy of the packaged app. No 'unsafe-eval', no inline script, no remote anything. */
export const APP_CSP_DIRECTIVES: CspDirectives = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
};

/** Under `electron-vite dev` only: the same, plus the inline <style> and React Refresh preamble Vite's dev server injects. */
export const DEV_CSP_DIRECTIVES: CspDirectives = {
  ...APP_CSP_DIRECTIVES,
  'script-src': ["'self'", "'unsafe-inline'"],
  'style-src': ["'self'", "'unsafe-inline'"],
};

export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join('; ');
}

export function parseCsp(policy: string): Record<string, string[]> {
  const directives: Record<string, string[]> = {};
  for (const part of policy.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name.toLowerCase()] = sources;
  }
  return directives;
}

/**
 * Response headers with our policy in place of any the response carried
 * (header names compare case-insensitively), for `onHeadersReceived` and the
 * app:// protocol handler.
 */
export function withContentSecurityPolicy(
  headers: Readonly<Record<string, string | string[]>> | undefined,
  policy: string,
): Record<string, string[]> {
  const result: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'content-security-policy' || lower === 'x-content-type-options') continue;
    result[name] = Array.isArray(value) ? [...value] : [value];
  }
  result['Content-Security-Policy'] = [policy];
  result['X-Content-Type-Options'] = ['nosniff'];
  return result;
}

// The sign-in server's address (`auth_url`) and the only URLs derived from it
// that we send the browser to or post codes to. Only https, except for a
// loopback address literal (the emulator, a developer's machine).
import { AuthUrlRefusedError } from './auth-errors';

/** Parse and check a configured `auth_url`; throws AuthUrlRefusedError saying why. */
export function parseAuthUrl(raw: string): URL {
  return checkedServerUrl(raw, (reason) => new AuthUrlRefusedError(reason));
}

/**
 * A configured server address (the API's, the sign-in server's, the update
 * feed's), checked as each of them is: a URL, https or plain http to a
 * loopback address literal, no user name or password, no query or fragment.
 * Throws what `refuse` makes of the reason.
 */
export function checkedServerUrl(raw: string, refuse: (reason: string) => Error): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw refuse('it is not a valid URL');
  }
  if (url.protocol === 'http:') {
    if (!isLoopbackHost(url.hostname)) throw refuse(`it must use https (${PLAIN_HTTP_RULE})`);
  } else if (url.protocol !== 'https:') {
    throw refuse('it must use https');
  }
  if (url.username !== '' || url.password !== '') throw refuse('it must not contain a user name or password');
  if (url.search !== '' || url.hash !== '') throw refuse('it must not have a query or fragment');
  return url;
}

/** Why plain http was refused, in the words every refusal uses. */
export const PLAIN_HTTP_RULE =
  'plain http is only allowed for a loopback address: 127.0.0.1 (127.0.0.0/8) or [::1]';

/**
 * Loopback address literals as the WHATWG URL parser spells them (it
 * normalises 127.1, 0x7f.0.0.1 and [0::1]). Not the name `localhost`: a name
 * goes through the resolver (hosts file, DNS), which may send it off this
 * machine, so RFC 8252 section 8.3 advises the literals only.
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** `{auth_url}/oauth/{name}`, keeping any path the auth_url has (a server mounted under a prefix). */
export function oauthEndpoint(authUrl: URL, name: 'authorize' | 'token'): URL {
  const base = authUrl.href.endsWith('/') ? authUrl.href : `${authUrl.href}/`;
  return new URL(`oauth/${name}`, base);
}

/**
 * Refuse to open anything in the browser but the configured server's authorize
 * endpoint: a bug or a tampered setting must not turn sign-in into a way to
 * open arbitrary pages (or `file:` and custom-scheme URLs).
 */
export function assertOpenableInBrowser(url: string, authUrl: URL): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new AuthUrlRefusedError('the page to open is not a valid URL');
  }
  const authorize = oauthEndpoint(authUrl, 'authorize');
  if (parsed.origin !== authorize.origin || parsed.pathname !== authorize.pathname) {
    throw new AuthUrlRefusedError(`only the sign-in page of ${authUrl.origin} may be opened`);
  }
  if (parsed.protocol !== 'https:' && !(parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
    throw new AuthUrlRefusedError('the sign-in page must use https');
  }
}

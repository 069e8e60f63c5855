// The three settings that say which service an account talks to: `base_url`
// (the API), `auth_url` (OAuth) and the OAuth `client_id`. Defaults come from
// configuration, so a self-hosted or staging service is one field away.
import { PLAIN_HTTP_RULE, parseAuthUrl, isLoopbackHost } from '../auth/auth-url';
import { ServerSettingsRefusedError } from './account-errors';

export interface ServerSettings {
  base_url: string;
  auth_url: string;
  client_id: string;
}

/** The desktop app's public OAuth client id (the emulator registers the same). */
export const DESKTOP_CLIENT_ID = 'svcc_desktop';

/**
 * Defaults from the environment: `SVC_BASE_URL`, `SVC_AUTH_URL` (default: the
 * base URL, as the service serves both) and `SVC_CLIENT_ID`. There is no
 * built-in service address: a build for a given service passes its own.
 */
export function serverDefaultsFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): Partial<ServerSettings> {
  const base = env.SVC_BASE_URL?.trim();
  const auth = env.SVC_AUTH_URL?.trim() || base;
  return {
    ...(base ? { base_url: base } : {}),
    ...(auth ? { auth_url: auth } : {}),
    client_id: env.SVC_CLIENT_ID?.trim() || DESKTOP_CLIENT_ID,
  };
}

/**
 * The settings for one sign-in: what the person typed over the defaults,
 * checked. `base_url` receives the bearer token on every request, so like
 * `auth_url` it must be https (plain http only for a loopback address literal).
 * Throws ServerSettingsRefusedError or AuthUrlRefusedError saying why.
 */
export function resolveServerSettings(
  defaults: Partial<ServerSettings>,
  overrides: Partial<ServerSettings> = {},
): ServerSettings {
  const base = overrides.base_url ?? defaults.base_url;
  const auth = overrides.auth_url ?? defaults.auth_url ?? base;
  const clientId = (overrides.client_id ?? defaults.client_id ?? DESKTOP_CLIENT_ID).trim();
  if (base === undefined || base.trim() === '') {
    throw new ServerSettingsRefusedError('base_url', 'no server address is configured; enter one');
  }
  if (!/^[\x21-\x7E]{1,200}$/.test(clientId)) {
    throw new ServerSettingsRefusedError('client_id', 'it must be printable characters without spaces');
  }
  return {
    base_url: checkedBaseUrl(base),
    auth_url: withoutTrailingSlash(parseAuthUrl(auth ?? base).href),
    client_id: clientId,
  };
}

function checkedBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ServerSettingsRefusedError('base_url', 'it is not a valid URL');
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new ServerSettingsRefusedError('base_url', `it must use https (${PLAIN_HTTP_RULE})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ServerSettingsRefusedError('base_url', 'it must use https');
  }
  if (url.username || url.password) {
    throw new ServerSettingsRefusedError('base_url', 'it must not contain a user name or password');
  }
  if (url.search || url.hash)
    throw new ServerSettingsRefusedError('base_url', 'it must not have a query or fragment');
  return withoutTrailingSlash(url.href);
}

/** One spelling per address, so two accounts on one server compare equal. */
function withoutTrailingSlash(href: string): string {
  return href.replace(/\/+$/, '');
}

// The three settings that say which service an account talks to: `base_url`
// (the API), `auth_url` (OAuth) and the OAuth `client_id`. Defaults come from
// configuration, so a self-hosted or staging service is one field away.
import { z } from 'zod';
import { checkedServerUrl, parseAuthUrl } from '../auth/auth-url';
import { ServerSettingsRefusedError } from './account-errors';
import serverPairsFile from './server-pairs.json' with { type: 'json' };

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

/** An API and a sign-in server on different origins that a build trusts to share a sign-in. */
export interface ServerPair {
  base_url: string;
  auth_url: string;
}

const serverPairsSchema = z.object({
  pairs: z.array(z.object({ base_url: z.url(), auth_url: z.url() })),
});

/** The pairs this build names (sync/accounts/server-pairs.json, bundled at build time). */
export const BUILD_SERVER_PAIRS: readonly ServerPair[] = serverPairsSchema.parse(serverPairsFile).pairs;

/**
 * Whether the token `auth_url` issues may be sent to `base_url`: both on one
 * origin (scheme, host and port), or a pair the build names. Same origin and
 * not same site (registrable domain): telling `api.example.co.uk` from
 * `evil.co.uk` needs the Public Suffix List, which the app does not carry;
 * a service whose API and sign-in live on two hosts names them in the build's list.
 */
export function isTrustedServerPair(
  baseUrl: string,
  authUrl: string,
  trustedPairs: readonly ServerPair[] = BUILD_SERVER_PAIRS,
): boolean {
  const base = originOf(baseUrl);
  const auth = originOf(authUrl);
  if (base === null || auth === null) return false;
  if (base === auth) return true;
  return trustedPairs.some((pair) => originOf(pair.base_url) === base && originOf(pair.auth_url) === auth);
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Throws ServerSettingsRefusedError unless isTrustedServerPair. */
export function assertTrustedServerPair(
  settings: Pick<ServerSettings, 'base_url' | 'auth_url'>,
  trustedPairs: readonly ServerPair[] = BUILD_SERVER_PAIRS,
): void {
  if (isTrustedServerPair(settings.base_url, settings.auth_url, trustedPairs)) return;
  throw new ServerSettingsRefusedError(
    'base_url',
    `it is not on the sign-in server's origin (${originOf(settings.auth_url) ?? settings.auth_url}), and the sign-in's ` +
      'access token is sent only there unless this build of the app names the pair',
  );
}

/**
 * The settings for one sign-in: what the person typed over the defaults,
 * checked. `base_url` receives the bearer token on every request, so like
 * `auth_url` it must be https (plain http only for a loopback address literal),
 * and on the sign-in server's origin unless the build names the pair.
 * Throws ServerSettingsRefusedError or AuthUrlRefusedError saying why.
 */
export function resolveServerSettings(
  defaults: Partial<ServerSettings>,
  overrides: Partial<ServerSettings> = {},
  trustedPairs: readonly ServerPair[] = BUILD_SERVER_PAIRS,
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
  const settings = {
    base_url: checkedBaseUrl(base),
    auth_url: withoutTrailingSlash(parseAuthUrl(auth ?? base).href),
    client_id: clientId,
  };
  assertTrustedServerPair(settings, trustedPairs);
  return settings;
}

/**
 * An API address a token may be sent to, on its own (a pasted token, whose
 * sign-in server is not known): https, plain http only to a loopback address
 * literal, no user name, query or fragment. Throws ServerSettingsRefusedError.
 */
export function checkedApiAddress(raw: string): string {
  return checkedBaseUrl(raw);
}

function checkedBaseUrl(raw: string): string {
  const url = checkedServerUrl(raw, (reason) => new ServerSettingsRefusedError('base_url', reason));
  return withoutTrailingSlash(url.href);
}

/** One spelling per address, so two accounts on one server compare equal. */
function withoutTrailingSlash(href: string): string {
  return href.replace(/\/+$/, '');
}

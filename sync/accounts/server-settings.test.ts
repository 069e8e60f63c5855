// Which server addresses an account may use, and where the defaults come from.
import { describe, expect, test } from 'vitest';
import { AuthUrlRefusedError } from '../auth/auth-errors';
import { ServerSettingsRefusedError } from './account-errors';
import {
  BUILD_SERVER_PAIRS,
  DESKTOP_CLIENT_ID,
  type ServerPair,
  resolveServerSettings,
  serverDefaultsFromEnvironment,
} from './server-settings';

describe('defaults from configuration', () => {
  test('the environment names the service; the auth server defaults to the API server', () => {
    expect(serverDefaultsFromEnvironment({ SVC_BASE_URL: 'https://api.staging.example' })).toEqual({
      base_url: 'https://api.staging.example',
      auth_url: 'https://api.staging.example',
      client_id: DESKTOP_CLIENT_ID,
    });
    expect(
      serverDefaultsFromEnvironment({
        SVC_BASE_URL: 'https://api.example',
        SVC_AUTH_URL: 'https://login.example',
        SVC_CLIENT_ID: 'svcc_custom',
      }),
    ).toEqual({
      base_url: 'https://api.example',
      auth_url: 'https://login.example',
      client_id: 'svcc_custom',
    });
  });

  test('with nothing configured there is no server address, and signing in asks for one', () => {
    const defaults = serverDefaultsFromEnvironment({});
    expect(defaults).toEqual({ client_id: DESKTOP_CLIENT_ID });
    expect(() => resolveServerSettings(defaults)).toThrow(ServerSettingsRefusedError);
  });
});

/** A build that trusts tasks.acme.test's API with api.example's sign-in. */
const ACME_PAIR: readonly ServerPair[] = [
  { base_url: 'https://tasks.acme.test', auth_url: 'https://api.example' },
];

describe('one field away', () => {
  const defaults = {
    base_url: 'https://api.example',
    auth_url: 'https://api.example',
    client_id: 'svcc_desktop',
  };

  test('a self-hosted server replaces only what is typed, spelled one way', () => {
    expect(resolveServerSettings(defaults, { base_url: 'https://tasks.acme.test/' }, ACME_PAIR)).toEqual({
      base_url: 'https://tasks.acme.test',
      auth_url: 'https://api.example',
      client_id: 'svcc_desktop',
    });
    expect(
      resolveServerSettings(defaults, {
        base_url: 'https://tasks.acme.test/',
        auth_url: 'https://tasks.acme.test/sso',
      }),
    ).toEqual({
      base_url: 'https://tasks.acme.test',
      auth_url: 'https://tasks.acme.test/sso',
      client_id: 'svcc_desktop',
    });
  });

  test.each([
    ['http://api.example.com', ServerSettingsRefusedError],
    ['ftp://api.example.com', ServerSettingsRefusedError],
    ['https://user:pw@api.example.com', ServerSettingsRefusedError],
    ['https://api.example.com/?x=1', ServerSettingsRefusedError],
    ['not a url', ServerSettingsRefusedError],
  ])('the API address %s is refused: it would receive the bearer token', (base_url, error) => {
    expect(() => resolveServerSettings(defaults, { base_url })).toThrow(error);
  });

  test('plain http is fine for a loopback address literal (the emulator)', () => {
    expect(
      resolveServerSettings(defaults, {
        base_url: 'http://127.0.0.1:4010',
        auth_url: 'http://127.0.0.1:4010',
      }),
    ).toEqual({
      base_url: 'http://127.0.0.1:4010',
      auth_url: 'http://127.0.0.1:4010',
      client_id: 'svcc_desktop',
    });
    expect(
      resolveServerSettings(defaults, { base_url: 'http://[::1]:4010', auth_url: 'http://[::1]:4010' }),
    ).toEqual({
      base_url: 'http://[::1]:4010',
      auth_url: 'http://[::1]:4010',
      client_id: 'svcc_desktop',
    });
  });

  test.each(['http://localhost:4010', 'http://localhost.:4010', 'http://127.0.0.1.nip.io:4010'])(
    'plain http to the name %s is refused for the API: a name may resolve off this machine (RFC 8252 8.3)',
    (base_url) => {
      expect(() => resolveServerSettings(defaults, { base_url, auth_url: 'http://127.0.0.1:4010' })).toThrow(
        /server address was refused: .*loopback address: 127\.0\.0\.1 \(127\.0\.0\.0\/8\) or \[::1\]/,
      );
    },
  );

  test('the auth address follows the sign-in rules (https only)', () => {
    expect(() => resolveServerSettings(defaults, { auth_url: 'http://login.example' })).toThrow(
      AuthUrlRefusedError,
    );
  });

  test('a client id with spaces is refused', () => {
    expect(() => resolveServerSettings(defaults, { client_id: 'svcc desktop' })).toThrow(
      ServerSettingsRefusedError,
    );
  });
});

describe('the access token goes only where the sign-in is', () => {
  const defaults = { client_id: 'svcc_desktop' };

  test.each([
    ['another host', 'https://api.evil.test', 'https://login.example.com'],
    ['a sibling host of one site', 'https://api.example.com', 'https://login.example.com'],
    ['another port', 'https://example.com:8443', 'https://example.com'],
    ['another loopback port', 'http://127.0.0.1:4011', 'http://127.0.0.1:4010'],
    ['another scheme', 'http://127.0.0.1:443', 'https://127.0.0.1'],
  ])('an API on %s than the sign-in server is refused, saying why', (_case, base_url, auth_url) => {
    expect(() => resolveServerSettings(defaults, { base_url, auth_url })).toThrow(ServerSettingsRefusedError);
    expect(() => resolveServerSettings(defaults, { base_url, auth_url })).toThrow(
      /not on the sign-in server's origin .*unless this build of the app names the pair/,
    );
  });

  test.each([
    ['one host', 'https://example.com', 'https://example.com'],
    ['one host, the sign-in under a path', 'https://example.com/api', 'https://example.com/sso'],
    ['one loopback server', 'http://127.0.0.1:4010', 'http://127.0.0.1:4010'],
  ])('an API on the sign-in server’s origin (%s) is accepted', (_case, base_url, auth_url) => {
    expect(resolveServerSettings(defaults, { base_url, auth_url })).toMatchObject({ base_url, auth_url });
  });

  test('a pair the build names is accepted, and only that pair, only that way round', () => {
    const pairs: readonly ServerPair[] = [
      { base_url: 'https://api.example.com', auth_url: 'https://login.example.com/' },
    ];
    expect(
      resolveServerSettings(
        defaults,
        { base_url: 'https://api.example.com/', auth_url: 'https://login.example.com/oauth-root' },
        pairs,
      ),
    ).toMatchObject({
      base_url: 'https://api.example.com',
      auth_url: 'https://login.example.com/oauth-root',
    });
    expect(() =>
      resolveServerSettings(
        defaults,
        { base_url: 'https://login.example.com', auth_url: 'https://api.example.com' },
        pairs,
      ),
    ).toThrow(ServerSettingsRefusedError);
    expect(() =>
      resolveServerSettings(
        defaults,
        { base_url: 'https://api.evil.test', auth_url: 'https://login.example.com' },
        pairs,
      ),
    ).toThrow(ServerSettingsRefusedError);
  });

  test('the build configuration the app reads parses, and names no pair today', () => {
    expect(BUILD_SERVER_PAIRS).toEqual([]);
  });
});

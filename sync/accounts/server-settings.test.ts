// Which server addresses an account may use, and where the defaults come from.
import { describe, expect, test } from 'vitest';
import { AuthUrlRefusedError } from '../auth/auth-errors';
import { ServerSettingsRefusedError } from './account-errors';
import { DESKTOP_CLIENT_ID, resolveServerSettings, serverDefaultsFromEnvironment } from './server-settings';

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

describe('one field away', () => {
  const defaults = {
    base_url: 'https://api.example',
    auth_url: 'https://api.example',
    client_id: 'svcc_desktop',
  };

  test('a self-hosted server replaces only what is typed, spelled one way', () => {
    expect(resolveServerSettings(defaults, { base_url: 'https://tasks.acme.test/' })).toEqual({
      base_url: 'https://tasks.acme.test',
      auth_url: 'https://api.example',
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

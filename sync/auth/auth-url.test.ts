import { describe, expect, test } from 'vitest';
import { AuthUrlRefusedError } from './auth-errors';
import { assertOpenableInBrowser, oauthEndpoint, parseAuthUrl } from './auth-url';

function refusal(run: () => unknown): AuthUrlRefusedError | undefined {
  try {
    run();
  } catch (error) {
    if (error instanceof AuthUrlRefusedError) return error;
    throw error;
  }
  return undefined;
}

describe('auth_url policy', () => {
  test.each([
    'https://auth.example.com',
    'https://auth.example.com/',
    'https://example.com/sso',
    'http://127.0.0.1:4010',
    'http://127.0.0.2:4010',
    'http://127.255.255.254:4010',
    'http://127.1:4010',
    'http://[::1]:4010',
    'http://[0:0::1]:4010',
  ])('accepts %s', (raw) => {
    expect(parseAuthUrl(raw)).toBeInstanceOf(URL);
  });

  test.each([
    ['http://auth.example.com', /must use https/],
    ['http://10.0.0.1', /must use https/],
    ['http://localhost.example.com', /must use https/],
    // A name goes through the resolver, which may send it off this machine (RFC 8252 section 8.3).
    ['http://localhost:4010', /loopback address: 127\.0\.0\.1 \(127\.0\.0\.0\/8\) or \[::1\]/],
    ['http://LOCALHOST:4010', /must use https/],
    ['http://localhost.:4010', /must use https/],
    ['http://128.0.0.1:4010', /must use https/],
    ['http://[::ffff:127.0.0.1]:4010', /must use https/],
    ['http://[::2]:4010', /must use https/],
    ['http://127.0.0.1.nip.io', /must use https/],
    ['ftp://auth.example.com', /must use https/],
    ['file:///etc/passwd', /must use https/],
    ['javascript:alert(1)', /must use https/],
    ['not a url', /not a valid URL/],
    ['https://user:pw@auth.example.com', /user name or password/],
    ['https://auth.example.com/?next=x', /query or fragment/],
    ['https://auth.example.com/#x', /query or fragment/],
  ])('refuses %s', (raw, reason) => {
    const error = refusal(() => parseAuthUrl(raw));
    expect(error).toMatchObject({ type: 'auth-url-refused' });
    expect(error?.message).toMatch(reason);
  });

  test('the OAuth endpoints sit under the auth_url, whatever its path', () => {
    expect(oauthEndpoint(parseAuthUrl('https://a.example'), 'authorize').href).toBe(
      'https://a.example/oauth/authorize',
    );
    expect(oauthEndpoint(parseAuthUrl('https://a.example/sso'), 'token').href).toBe(
      'https://a.example/sso/oauth/token',
    );
    expect(oauthEndpoint(parseAuthUrl('https://a.example/sso/'), 'token').href).toBe(
      'https://a.example/sso/oauth/token',
    );
  });
});

describe('what may be opened in the browser', () => {
  const authUrl = parseAuthUrl('https://auth.example.com/sso');

  test("opens the configured server's authorize page, with its query", () => {
    expect(
      refusal(() => assertOpenableInBrowser('https://auth.example.com/sso/oauth/authorize?state=x', authUrl)),
    ).toBeUndefined();
  });

  test.each([
    'https://evil.example/sso/oauth/authorize',
    'http://auth.example.com/sso/oauth/authorize',
    'https://auth.example.com:8443/sso/oauth/authorize',
    'https://auth.example.com/other',
    'https://auth.example.com/sso/oauth/token',
    'file:///sso/oauth/authorize',
    'svc-desktop://sso/oauth/authorize',
    'nonsense',
  ])('refuses %s', (url) => {
    expect(refusal(() => assertOpenableInBrowser(url, authUrl))).toBeInstanceOf(AuthUrlRefusedError);
  });
});

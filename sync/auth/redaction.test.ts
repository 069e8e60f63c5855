import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { OAuthProtocolError } from './auth-errors';
import { redactSecrets } from './redaction';
import { TokenGrant } from './token-endpoint';

const ACCESS = 'svc_live_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';
const REFRESH = 'svcr_ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210-_zyxwv';

describe('redaction', () => {
  test('token-shaped strings are redacted whatever their prefix', () => {
    const text = `a ${ACCESS} b tsk_test_aaaaaaaaaaaaaaaaaaaa c ${REFRESH} d svc_test_x.`;
    expect(redactSecrets(text)).toBe('a [redacted] b [redacted] c [redacted] d [redacted].');
  });

  test('known secrets are redacted by value, however they look', () => {
    expect(redactSecrets('code 9f8e7d6c5b4a3 was bad', ['9f8e7d6c5b4a3'])).toBe('code [redacted] was bad');
  });

  test('very short "secrets" do not blank out ordinary words', () => {
    expect(redactSecrets('the code is bad', ['code'])).toBe('the code is bad');
  });

  test("a server's error description never carries a token into the error", () => {
    const error = OAuthProtocolError.fromWire(
      'refresh',
      'invalid_grant',
      `refresh token ${REFRESH} was used; access ${ACCESS} revoked; secret opaque-refresh-123`,
      ['opaque-refresh-123'],
    );
    for (const shown of [error.message, String(error.description), inspect(error), JSON.stringify(error)]) {
      expect(shown).not.toContain(REFRESH);
      expect(shown).not.toContain(ACCESS);
      expect(shown).not.toContain('opaque-refresh-123');
    }
    expect(error.message).toContain('invalid_grant');
  });

  test('error codes and descriptions outside the RFC 6749 character set are not taken as given', () => {
    const error = OAuthProtocolError.fromWire('token', 'bad"code', 'line\nbreak');
    expect(error.code).toBe('invalid_request');
    expect(error.description).toBeNull();
  });

  test('a token grant prints and serialises without its tokens', () => {
    const grant = new TokenGrant(ACCESS, REFRESH, 1_000, ['tasks:write'], 'org_1');
    expect(grant.accessToken).toBe(ACCESS);
    expect(grant.refreshToken).toBe(REFRESH);
    for (const shown of [
      inspect(grant),
      JSON.stringify(grant),
      JSON.stringify({ grant }),
      inspect({ nested: { grant } }),
    ]) {
      expect(shown).not.toContain(ACCESS);
      expect(shown).not.toContain(REFRESH);
    }
    expect(JSON.stringify(grant)).toContain('org_1');
  });
});

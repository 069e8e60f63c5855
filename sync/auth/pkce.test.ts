import { describe, expect, test } from 'vitest';
import { codeChallengeS256, createCodeVerifier, createPkcePair, isCodeVerifier } from './pkce';

// RFC 7636 Appendix B: the 32 octets, the verifier they give, and its S256 challenge.
const RFC_OCTETS = Uint8Array.from([
  116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191,
  240, 91, 88, 5, 88, 83, 132, 141, 121,
]);
const RFC_VERIFIER = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
// (The value in the RFC text; SHA-256 of the verifier, checked independently with openssl.)
const RFC_CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('PKCE S256', () => {
  test('the challenge of the RFC 7636 Appendix B verifier is the one the RFC gives', () => {
    expect(codeChallengeS256(RFC_VERIFIER)).toBe(RFC_CHALLENGE);
  });

  test('the RFC 7636 Appendix B octets become the RFC verifier and challenge', () => {
    const pair = createPkcePair(() => RFC_OCTETS);
    expect(pair).toEqual({ verifier: RFC_VERIFIER, challenge: RFC_CHALLENGE, method: 'S256' });
  });

  test.each([43, 44, 64, 100, 127, 128])(
    'a %i-character verifier uses only unreserved characters',
    (length) => {
      const verifier = createCodeVerifier(undefined, length);
      expect(verifier).toHaveLength(length);
      expect(verifier).toMatch(/^[A-Za-z0-9\-._~]+$/);
      expect(isCodeVerifier(verifier)).toBe(true);
    },
  );

  test.each([0, 42, 129, 43.5])('refuses a verifier length of %s', (length) => {
    expect(() => createCodeVerifier(undefined, length)).toThrow(RangeError);
  });

  test('each attempt gets a different verifier from the system random source', () => {
    const verifiers = new Set(Array.from({ length: 50 }, () => createPkcePair().verifier));
    expect(verifiers.size).toBe(50);
  });

  test('a random source that gives too few bytes is refused, not turned into a short verifier', () => {
    expect(() => createCodeVerifier(() => new Uint8Array(8))).toThrow(/too few bytes/);
  });

  test.each([
    ['too short', 'a'.repeat(42)],
    ['too long', 'a'.repeat(129)],
    ['reserved characters', 'a'.repeat(42) + '+'],
    ['padding', 'a'.repeat(42) + '='],
  ])('recognises an invalid verifier: %s', (_why, value) => {
    expect(isCodeVerifier(value)).toBe(false);
  });
});

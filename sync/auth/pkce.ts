// PKCE (RFC 7636) with the S256 method: a fresh verifier per sign-in attempt and
// the challenge the authorization request carries in its place.
import { createHash } from 'node:crypto';
import { type RandomBytes, base64Url, systemRandomBytes } from './randomness';

export const MIN_VERIFIER_LENGTH = 43;
export const MAX_VERIFIER_LENGTH = 128;
const VERIFIER_PATTERN = /^[A-Za-z0-9\-._~]{43,128}$/;

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

/**
 * A verifier of `length` characters. base64url only uses unreserved characters,
 * and every character carries 6 random bits, so the default 43 give 258 bits.
 */
export function createCodeVerifier(
  random: RandomBytes = systemRandomBytes,
  length = MIN_VERIFIER_LENGTH,
): string {
  if (!Number.isInteger(length) || length < MIN_VERIFIER_LENGTH || length > MAX_VERIFIER_LENGTH) {
    throw new RangeError(`A PKCE verifier has ${MIN_VERIFIER_LENGTH} to ${MAX_VERIFIER_LENGTH} characters`);
  }
  const verifier = base64Url(random(Math.ceil((length * 3) / 4))).slice(0, length);
  if (!isCodeVerifier(verifier)) throw new Error('The random source gave too few bytes for a PKCE verifier');
  return verifier;
}

export function isCodeVerifier(value: string): boolean {
  return VERIFIER_PATTERN.test(value);
}

/** S256: base64url(SHA-256(ASCII(verifier))). */
export function codeChallengeS256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

export function createPkcePair(random: RandomBytes = systemRandomBytes): PkcePair {
  const verifier = createCodeVerifier(random);
  return { verifier, challenge: codeChallengeS256(verifier), method: 'S256' };
}

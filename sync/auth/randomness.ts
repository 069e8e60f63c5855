// The one source of randomness the sign-in code uses, injectable so tests can
// pin verifiers and states; the default is the operating system's CSPRNG.
import { randomBytes } from 'node:crypto';

/** Returns `size` cryptographically random bytes. */
export type RandomBytes = (size: number) => Uint8Array;

export const systemRandomBytes: RandomBytes = (size) => randomBytes(size);

/** base64url without padding: every character is in RFC 7636's unreserved set. */
export function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

// ETags and the conditional headers that use them. An ETag is a strong
// validator of the exact bytes of a body (a hash of them), so equal ETags mean
// equal bodies and any change to a body changes its ETag.
import { createHash } from 'node:crypto';

export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

function listedTags(header: string): string[] {
  return header
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

/** `If-None-Match` uses the weak comparison (RFC 9110 13.1.2): `W/` is ignored, `*` matches anything. */
export function noneMatchSatisfied(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return listedTags(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/** `If-Match` uses the strong comparison (RFC 9110 13.1.1): a weak tag never matches. */
export function matchFails(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  return !listedTags(header).some((tag) => tag === '*' || tag === etag);
}

/** The ETag of a value as the emulator serializes it (JSON.stringify). */
export function etagOfJson(value: unknown): string {
  return etagOf(JSON.stringify(value));
}

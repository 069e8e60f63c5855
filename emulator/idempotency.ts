// `Idempotency-Key` on creates (contract, Common request rules and Errors): the
// first successful answer is replayed for 24 hours to the same caller sending
// the same key; the same key on a different request (method, path or body) is
// 422 `idempotency-key-reused`; while the first request is unfinished, 409
// `idempotency-key-in-flight`. A failed first attempt (any non-2xx) keeps
// nothing, so the caller may retry with the same key.
import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import { ProblemReply } from './problem';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

interface KeyEntry {
  fingerprint: string;
  firstSeen: number;
  response: StoredResponse | null;
}

export function validateIdempotencyKey(key: string): void {
  if (key.length < 1 || key.length > 255 || !/^[\x20-\x7e]+$/.test(key)) {
    throw new ProblemReply(
      400,
      'idempotency-key-invalid',
      'Invalid Idempotency-Key',
      'Idempotency-Key must be 1 to 255 printable ASCII characters.',
    );
  }
}

export function requestFingerprint(method: string, url: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${url}\n${body === undefined ? '' : JSON.stringify(body)}`)
    .digest('hex');
}

/**
 * Thrown by the hook that finds a stored answer, so the stored answer is sent
 * by the error handler. Sending it from the hook itself is not enough: while
 * the answer is still in the async onSend hooks (added latency, a dropped
 * connection), Fastify does not count it as sent and would run the route
 * handler too, creating the resource a second time.
 */
export class IdempotentReplay extends Error {
  override readonly name = 'IdempotentReplay';
  constructor(readonly stored: StoredResponse) {
    super('replaying the stored answer of an Idempotency-Key');
  }
}

export class IdempotencyStore {
  private readonly entries = new Map<string, KeyEntry>();

  constructor(private readonly clock: Clock) {}

  /**
   * Registers the first use of a key, or answers what to do with a repeat:
   * `replay` the stored answer, or throw 409 / 422.
   */
  begin(scopeKey: string, fingerprint: string): { replay: StoredResponse } | null {
    const now = this.clock.now();
    const existing = this.entries.get(scopeKey);
    if (existing && now - existing.firstSeen < IDEMPOTENCY_WINDOW_MS) {
      if (existing.fingerprint !== fingerprint) {
        throw new ProblemReply(
          422,
          'idempotency-key-reused',
          'Idempotency-Key reused',
          'This Idempotency-Key was first used for a different request (method, path or body).',
        );
      }
      if (existing.response === null) {
        throw new ProblemReply(
          409,
          'idempotency-key-in-flight',
          'Idempotency-Key in flight',
          'The first request with this Idempotency-Key has not finished yet; retry later.',
        );
      }
      return { replay: existing.response };
    }
    this.entries.set(scopeKey, { fingerprint, firstSeen: now, response: null });
    return null;
  }

  finish(scopeKey: string, response: StoredResponse): void {
    const entry = this.entries.get(scopeKey);
    if (entry) entry.response = response;
  }

  abandon(scopeKey: string): void {
    this.entries.delete(scopeKey);
  }
}

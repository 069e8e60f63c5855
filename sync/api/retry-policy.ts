// When a failed request may be sent again, and how long to wait first. A
// request is only repeated when repeating it cannot do a thing twice: reads,
// deletes and replaces always; a create only with its Idempotency-Key; an
// update with If-Match or an Idempotency-Key.

export interface RetryOptions {
  /** Attempts in all for network errors and 5xx answers, the first included. */
  maxAttempts: number;
  /** Extra attempts allowed after 429 answers (each after its Retry-After). */
  maxRateLimitRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Uniform in [0, 1): injectable so tests are deterministic. */
  random: () => number;
}

export const DEFAULT_RETRY_OPTIONS: RetryOptions = {
  maxAttempts: 5,
  maxRateLimitRetries: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  random: Math.random,
};

/**
 * Exponential backoff with jitter ("equal jitter"): half the exponential step
 * is kept so delays grow, the other half is random so many clients retrying
 * together spread out. `retry` counts from 1.
 */
export function backoffDelayMs(
  retry: number,
  options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'>,
): number {
  const step = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return step / 2 + options.random() * (step / 2);
}

/** May this request be repeated without risk of doing it twice? */
export function isSafeToRepeat(method: string, headers: Readonly<Record<string, string>>): boolean {
  const has = (name: string): boolean => headers[name] !== undefined && headers[name] !== '';
  switch (method.toUpperCase()) {
    case 'GET':
    case 'HEAD':
    case 'OPTIONS':
    case 'PUT':
    case 'DELETE':
      return true;
    case 'POST':
      return has('idempotency-key');
    case 'PATCH':
      return has('idempotency-key') || has('if-match');
    default:
      return false;
  }
}

/** Transport failures where the request never reached the service: repeating is always safe. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** Transport failures worth another attempt (the connection, not the request, was at fault). */
const RETRYABLE_CODES = new Set([
  ...NOT_SENT_CODES,
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'UND_ERR_REQ_CONTENT_LENGTH_MISMATCH',
]);

export interface TransportFailure {
  code: string;
  description: string;
  retryable: boolean;
  /** The request certainly did not reach the service. */
  notSent: boolean;
}

/** Describes a thrown transport error without keeping the error itself (it may hold request details). */
export function describeTransportFailure(error: unknown): TransportFailure {
  const code = transportCode(error);
  const description = error instanceof Error ? error.message : String(error);
  return { code, description, retryable: RETRYABLE_CODES.has(code), notSent: NOT_SENT_CODES.has(code) };
}

function transportCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
    current = (current as { cause?: unknown }).cause;
  }
  if (error instanceof SyntaxError) return 'EBADBODY';
  return 'EUNKNOWN';
}

/** Answers worth another attempt when the request is safe to repeat. */
export function isRetryableStatus(status: number, problemType: string): boolean {
  if (status === 409) return problemType === 'idempotency-key-in-flight';
  return status >= 500 && status !== 501 && status !== 505;
}

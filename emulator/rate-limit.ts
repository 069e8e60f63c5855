// The contract's rate limits: a fixed window per key (a token's SHA-256, or the
// caller's address when no token authenticated), 600 a minute for live tokens
// and 60 for test tokens by default. Every answer reports the window in
// X-RateLimit-* headers; past the limit the answer is 429 with Retry-After.
import type { Clock } from './clock';
import { ProblemReply } from './problem';

export interface RateLimitConfig {
  live: number;
  test: number;
  windowMs: number;
}

export const DEFAULT_RATE_LIMIT: RateLimitConfig = { live: 600, test: 60, windowMs: 60_000 };

export interface RateState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (at least 1 while it runs). */
  resetSeconds: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly clock: Clock,
    readonly config: RateLimitConfig,
  ) {}

  /** Counts one request against `key`; `allowed` false when the window is spent (the request is not counted). */
  take(key: string, limit: number): { allowed: boolean; state: RateState } {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || now >= window.start + this.config.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
    }
    const resetSeconds = Math.max(1, Math.ceil((window.start + this.config.windowMs - now) / 1000));
    if (window.count >= limit) return { allowed: false, state: { limit, remaining: 0, resetSeconds } };
    window.count += 1;
    return { allowed: true, state: { limit, remaining: limit - window.count, resetSeconds } };
  }
}

export function rateLimitHeaders(state: RateState): Record<string, string> {
  return {
    'x-ratelimit-limit': String(state.limit),
    'x-ratelimit-remaining': String(state.remaining),
    'x-ratelimit-reset': String(state.resetSeconds),
  };
}

export function rateLimited(retryAfterSeconds: number, detail: string): ProblemReply {
  return new ProblemReply(429, 'rate-limit', 'Too many requests', detail, undefined, {
    'retry-after': String(retryAfterSeconds),
  });
}

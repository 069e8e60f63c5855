// What the API client tells observers (the sync log) of each HTTP attempt.

/**
 * One HTTP attempt as it ended, for observers such as the sync log. Never
 * carries headers or bodies (so no token); `path` includes the query.
 */
export interface ApiExchange {
  operation: string;
  method: string;
  path: string;
  /** Null when no answer came (a network error). */
  status: number | null;
  durationMs: number;
  requestId: string | null;
  /** 1 for the first attempt. */
  attempt: number;
  /** The client sends this request again (after a backoff, a Retry-After or a token refresh). */
  willRetry: boolean;
  /** The transport failure's code for a network error. */
  errorCode: string | null;
  /** Seconds the answer's `Retry-After` asked to wait (a 429, a 503), when it said. */
  retryAfterSeconds: number | null;
}

// The typed errors the API client throws. Every HTTP error answer becomes one
// ProblemError (callers branch on `status` and `type`, never on text); the other
// kinds say why no usable answer came. None of them ever carries a token.
import {
  ABOUT_BLANK,
  type ProblemErrorItem,
  type ProblemTypeName,
  problemErrorItems,
  problemSchema,
  problemTypeName,
} from '../../protocol/problem';

export type { ProblemErrorItem } from '../../protocol/problem';

export type ApiErrorKind =
  'problem' | 'invalid-response' | 'network' | 'signed-out' | 'aborted' | 'unsafe-id' | 'missing-upload';

/** Why the service no longer accepts our credentials (the contract's 401 problem types). */
export type SignedOutReason = 'token-expired' | 'token-revoked' | 'token-invalid';

export abstract class ApiError extends Error {
  abstract readonly kind: ApiErrorKind;
  constructor(
    /** The operation that failed, such as `tasks.list`. */
    readonly operation: string,
    message: string,
  ) {
    super(redactSecrets(message));
  }
}

/** An HTTP error answer (status >= 400), problem+json or not. */
export class ProblemError extends ApiError {
  readonly kind = 'problem';
  override readonly name = 'ProblemError';
  constructor(
    operation: string,
    readonly status: number,
    /**
     * The problem type's short name (what follows `:problem:`, so former-name
     * prefixes match), or `about:blank` for a plain HTTP error, including an
     * answer whose body was not problem+json.
     */
    readonly type: string,
    readonly detail: string,
    readonly errors: readonly ProblemErrorItem[],
    readonly requestId: string | null,
    /** Seconds the service asked us to wait (`Retry-After`), when it said. */
    readonly retryAfterSeconds: number | null,
    /** The problem's `type` as sent, for logs. */
    readonly typeUri: string,
    /** How many attempts were made before giving up (1 when not retried). */
    readonly attempts = 1,
  ) {
    super(operation, `${operation}: ${status} ${type}${detail ? `: ${detail}` : ''}`);
  }

  /** True when this is the documented problem `type` (under any prefix). */
  is(type: ProblemTypeName): boolean {
    return this.type === type;
  }

  withAttempts(attempts: number): ProblemError {
    return new ProblemError(
      this.operation,
      this.status,
      this.type,
      this.detail,
      this.errors,
      this.requestId,
      this.retryAfterSeconds,
      this.typeUri,
      attempts,
    );
  }
}

export interface ResponseIssue {
  /** Where in the body, as `data[3].task_id`; `(body)` for the body as a whole. */
  path: string;
  message: string;
}

/** A 2xx answer whose body does not match the contract: nothing of it is used. */
export class InvalidResponseError extends ApiError {
  readonly kind = 'invalid-response';
  override readonly name = 'InvalidResponseError';
  constructor(
    operation: string,
    readonly status: number,
    readonly issues: readonly ResponseIssue[],
  ) {
    const shown = issues
      .slice(0, 3)
      .map((issue) => `${issue.path}: ${issue.message}`)
      .join('; ');
    const more = issues.length > 3 ? ` (and ${issues.length - 3} more)` : '';
    super(operation, `${operation}: the service's answer does not match the contract at ${shown}${more}`);
  }

  /** The first offending field path. */
  get path(): string {
    return this.issues[0]?.path ?? '(body)';
  }
}

/** No answer: the connection failed, dropped or timed out (after the allowed retries). */
export class NetworkError extends ApiError {
  readonly kind = 'network';
  override readonly name = 'NetworkError';
  constructor(
    operation: string,
    /** The transport's error code, such as `ECONNRESET` or `UND_ERR_SOCKET`. */
    readonly code: string,
    description: string,
    readonly attempts: number,
  ) {
    super(operation, `${operation}: network error ${code}: ${description} (after ${attempts} attempt(s))`);
  }
}

/** The service refused our credentials for good: sign in again. Stops work; touches nothing local. */
export class SignedOutError extends ApiError {
  readonly kind = 'signed-out';
  override readonly name = 'SignedOutError';
  constructor(
    operation: string,
    readonly reason: SignedOutReason,
    readonly requestId: string | null,
  ) {
    super(operation, `${operation}: signed out (${reason}); sign in again to resume syncing`);
  }
}

/**
 * An id that cannot go into a URL path (empty, `.`, `..`, a control character):
 * the request was never sent. A change that carries one is refused for good.
 */
export class UnsafeIdError extends ApiError {
  readonly kind = 'unsafe-id';
  override readonly name = 'UnsafeIdError';
  constructor(
    operation: string,
    readonly id: string,
  ) {
    const shown = JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id);
    super(operation, `${operation}: the id ${shown} cannot be sent in a request's path; nothing was sent`);
  }
}

/** An upload whose kept copy of the file is gone or no longer its bytes: nothing was sent, and sending again cannot help. */
export class MissingUploadError extends ApiError {
  readonly kind = 'missing-upload';
  override readonly name = 'MissingUploadError';
  constructor(
    operation: string,
    readonly fileName: string,
  ) {
    super(operation, `${operation}: the app's copy of ${fileName} is gone or changed; nothing was sent`);
  }
}

/** The caller aborted the request. */
export class RequestAbortedError extends ApiError {
  readonly kind = 'aborted';
  override readonly name = 'RequestAbortedError';
  constructor(operation: string) {
    super(operation, `${operation}: aborted`);
  }
}

const TOKEN_PATTERN = /\b(svc_(?:live|test)_)[A-Za-z0-9._~+/=-]+/g;
const BEARER_PATTERN = /\b(Bearer\s+)[^\s"',;]+/gi;

/** Removes anything that looks like a credential from a text meant for people or logs. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 8) out = out.split(secret).join('[redacted]');
  }
  return out.replace(TOKEN_PATTERN, '$1[redacted]').replace(BEARER_PATTERN, '$1[redacted]');
}

/**
 * Parses a `Retry-After` value: delta-seconds or an HTTP date (RFC 9110
 * section 10.2.3). Null when absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, (at - nowMs) / 1000);
}

const MAX_DETAIL = 500;

/**
 * Turns an HTTP error answer into a ProblemError. Any JSON object is read as a
 * problem: its `type` names it (absent or unreadable: `about:blank`) and its
 * other members are read one by one, an odd one dropped, never the problem.
 * The status is always the answer's own (the body's `status` is advisory). Any
 * other body (an HTML page from a proxy, plain text, a JSON array) still gives
 * a typed error, `about:blank`, with a short excerpt.
 */
export function problemErrorFromAnswer(
  operation: string,
  answer: {
    status: number;
    contentType: string | null;
    text: string;
    requestId: string | null;
    retryAfter: number | null;
  },
  secrets: readonly string[] = [],
): ProblemError {
  let json: unknown;
  try {
    json = answer.text === '' ? undefined : JSON.parse(answer.text);
  } catch {
    json = undefined;
  }
  const excerpt = (): string =>
    redactSecrets(answer.text.replace(/\s+/g, ' ').trim().slice(0, MAX_DETAIL), secrets);
  const parsed = problemSchema.safeParse(json);
  if (!parsed.success) {
    return new ProblemError(
      operation,
      answer.status,
      ABOUT_BLANK,
      excerpt(),
      [],
      answer.requestId,
      answer.retryAfter,
      ABOUT_BLANK,
    );
  }
  const problem = parsed.data;
  const type = problemTypeName(problem.type) ?? ABOUT_BLANK;
  const detailList = Array.isArray(problem.detail) ? problemErrorItems(problem.detail) : [];
  const errors = problem.errors ?? detailList;
  const detail =
    typeof problem.detail === 'string'
      ? problem.detail
      : errors.map((item) => [item.loc?.join('.'), item.msg].filter(Boolean).join(': ')).join('; ') ||
        (problem.title ?? '') ||
        excerpt();
  return new ProblemError(
    operation,
    answer.status,
    type,
    redactSecrets(detail.slice(0, MAX_DETAIL), secrets),
    errors,
    problem.request_id ?? answer.requestId,
    answer.retryAfter,
    problem.type,
  );
}

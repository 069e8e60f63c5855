// How a failed push is classified: what stops the pass, what refuses a change
// for good, what says the token may not write, what means the task is out of
// reach, and the problem record stored on the operation. Apart from the pass
// because these are questions about an error, asked by every kind of operation.
import { NetworkError, ProblemError, RequestAbortedError, SignedOutError } from '../api/errors';
import { errorInfo } from '../events/sync-error-info';
import { pushKindOf } from './kinds/registry';

/** The scope a task write needs; a 403 on it makes the account read-only for it. */
export const TASK_WRITE_SCOPE = 'tasks:write';

/** Why pushing stopped early: no point sending more now. */
export type Stop = SignedOutError | NetworkError | RequestAbortedError;

/** A problem body that can be stored: what the service said, never a stack. */
export function problemRecord(error: unknown): unknown {
  if (error instanceof ProblemError) {
    return {
      status: error.status,
      type: error.type,
      detail: error.detail,
      errors: error.errors,
      request_id: error.requestId,
      // Kept so the outbox holds the change until then (db/outbox/sending.ts).
      ...(error.retryAfterSeconds === null ? {} : { retry_after_seconds: error.retryAfterSeconds }),
    };
  }
  const info = errorInfo(error);
  return { status: info.status, type: info.type ?? info.kind, detail: info.message, errors: [] };
}

export function isStop(error: unknown): error is Stop {
  return (
    error instanceof SignedOutError || error instanceof NetworkError || error instanceof RequestAbortedError
  );
}

/**
 * 403s that mean "this token may not write", as opposed to "not this task":
 * the scope refused (the one the service names, else the kind's own).
 */
export function readOnlyScope(error: ProblemError, entityType: string): string | null {
  if (!isScopeRefusal(error)) return null;
  if (error.type === 'test-token-read-only') return TASK_WRITE_SCOPE;
  if (error.type === 'insufficient-scope') {
    const required = (error.errors[0] as { required?: unknown } | undefined)?.required;
    return typeof required === 'string' ? required : pushKindOf(entityType).writeScope;
  }
  return null;
}

export function isScopeRefusal(error: ProblemError): boolean {
  return (
    error.status === 403 && (error.type === 'test-token-read-only' || error.type === 'insufficient-scope')
  );
}

/**
 * The task this edit is for is out of reach: deleted (404), or no longer
 * readable by this person (a 403 that is not about the token's scope, such as
 * a project they lost access to). Either way the edit waits for them as a draft.
 */
export function isGone(error: unknown): error is ProblemError {
  if (!(error instanceof ProblemError)) return false;
  return error.status === 404 || (error.status === 403 && !isScopeRefusal(error));
}

/** Answers that refuse the operation's content or target for good: the person must change something. */
export function isRefusal(error: ProblemError): boolean {
  if (error.status === 429 || error.status >= 500) return false;
  if (error.status === 409 && error.type === 'idempotency-key-in-flight') return false;
  return error.status >= 400;
}

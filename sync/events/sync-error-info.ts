// Turns whatever a sync step threw into SyncErrorInfo: plain data the UI can
// branch on (kind, problem type, status), with no stack and no secrets.
import { ApiError, ProblemError, redactSecrets } from '../api/errors';
import { SignInServerUnreachableError } from '../auth/api-credentials';
import { CursorsRefusedError } from './cursors-refused';
import type { SyncErrorInfo } from './sync-events';

export function errorInfo(error: unknown): SyncErrorInfo {
  if (error instanceof ApiError) {
    return {
      kind: error.kind,
      // The sign-in server, not the service, is out of reach: the screens say which.
      type:
        error instanceof ProblemError
          ? error.type
          : error instanceof SignInServerUnreachableError
            ? 'auth-server-unavailable'
            : null,
      status: error instanceof ProblemError ? error.status : null,
      operation: error.operation,
      message: error.message,
      retryAfterSeconds: error instanceof ProblemError ? error.retryAfterSeconds : null,
    };
  }
  if (error instanceof Error && error.name === 'MirrorStorageError') {
    const problem = (error as Error & { problem?: unknown }).problem;
    return {
      kind: 'storage',
      type: typeof problem === 'string' ? problem : null,
      status: null,
      operation: null,
      message: redactSecrets(error.message),
    };
  }
  if (error instanceof CursorsRefusedError) {
    // The last refusal says which problem the service answered; the message says what it cost.
    const cause = error.cause instanceof ProblemError ? error.cause : null;
    return {
      kind: 'cursor-refused',
      type: cause?.type ?? null,
      status: cause?.status ?? null,
      operation: cause?.operation ?? null,
      message: redactSecrets(error.message),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { kind: 'internal', type: null, status: null, operation: null, message: redactSecrets(message) };
}

// Every way signing in or keeping a session can fail, as typed values: callers
// (main/, the CLI, the sync engine) branch on `type`, never on message text.
// No error here carries a token, in its message or anywhere else.
import { redactSecrets } from './redaction';

export type AuthErrorType =
  | 'auth-url-refused'
  | 'oauth-error'
  | 'issuer-mismatch'
  | 'signed-out'
  | 'attempt-ended'
  | 'loopback-unavailable'
  | 'browser-open-failed'
  | 'token-response-invalid'
  | 'auth-server-unavailable'
  | 'secret-store-failed'
  | 'pasted-token-refused';

export abstract class AuthError extends Error {
  abstract readonly type: AuthErrorType;
}

/** The configured `auth_url` (or a URL about to be opened) is not one we may send the person to. */
export class AuthUrlRefusedError extends AuthError {
  override readonly name = 'AuthUrlRefusedError';
  readonly type = 'auth-url-refused';
  constructor(readonly reason: string) {
    super(`The sign-in address was refused: ${reason}.`);
  }
}

/** Where an RFC 6749 error came from: the browser redirect, the code exchange, or a refresh. */
export type OAuthStage = 'authorization' | 'token' | 'refresh';

const ERROR_EXPLANATIONS: Record<string, string> = {
  access_denied: 'Sign-in was declined on the consent page',
  invalid_request: 'The sign-in request was malformed',
  unauthorized_client: 'This app is not allowed to sign in this way',
  unsupported_response_type: 'The sign-in server does not support this kind of sign-in',
  invalid_scope: 'The requested permissions were refused',
  server_error: 'The sign-in server failed',
  temporarily_unavailable: 'The sign-in server is temporarily unavailable',
  invalid_client: 'The sign-in server does not know this app (client id)',
  invalid_grant: 'The authorization is no longer valid',
  unsupported_grant_type: 'The sign-in server does not support this kind of sign-in',
};

/** An RFC 6749 error (`error` / `error_description`) on the redirect or from the token endpoint. */
export class OAuthProtocolError extends AuthError {
  override readonly name = 'OAuthProtocolError';
  readonly type = 'oauth-error';
  constructor(
    readonly stage: OAuthStage,
    /** The RFC 6749 error code as the server sent it, e.g. `access_denied`. */
    readonly code: string,
    /** The server's `error_description`, already redacted; null when absent. */
    readonly description: string | null,
  ) {
    const what = ERROR_EXPLANATIONS[code] ?? 'The sign-in server refused the request';
    super(`${what} (${code}${description ? `: ${description}` : ''}).`);
  }

  /**
   * From the `error` and `error_description` a server sent: kept only if they
   * are what RFC 6749 allows (printable ASCII without `"` and `\`, and short),
   * the description redacted of anything token-shaped and of `knownSecrets`.
   */
  static fromWire(
    stage: OAuthStage,
    error: unknown,
    description: unknown,
    knownSecrets: readonly string[] = [],
  ): OAuthProtocolError {
    const code = typeof error === 'string' && ERROR_CODE_PATTERN.test(error) ? error : 'invalid_request';
    const text =
      typeof description === 'string' && DESCRIPTION_PATTERN.test(description)
        ? redactSecrets(description, knownSecrets)
        : null;
    return new OAuthProtocolError(stage, code, text);
  }
}

// RFC 6749 4.1.2.1 and 5.2: the character set of `error` and `error_description`.
const ERROR_CODE_PATTERN = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/;
const DESCRIPTION_PATTERN = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,300}$/;

/**
 * RFC 9207: the redirect named another authorization server (`iss`) than the
 * one this app sent the person to. The code is not used: it may have been
 * meant for another server (a mix-up attack), or the sign-in address is wrong.
 */
export class IssuerMismatchError extends AuthError {
  override readonly name = 'IssuerMismatchError';
  readonly type = 'issuer-mismatch';
  constructor(
    readonly expected: string,
    /** The `iss` the redirect carried; null when it carried several. */
    readonly received: string | null,
  ) {
    super(
      `The sign-in answer came from another server (${received === null ? 'an ambiguous issuer' : received.slice(0, 200)}) than the sign-in server ${expected}; it was refused. Check the sign-in address and try again.`,
    );
  }
}

export type SignedOutReason = 'refresh-token-refused' | 'no-refresh-token' | 'access-token-lapsed';

const SIGNED_OUT_MESSAGES: Record<SignedOutReason, string> = {
  'no-refresh-token': 'Not signed in: no saved sign-in was found. Sign in again.',
  'refresh-token-refused':
    'Signed out: the saved sign-in is no longer accepted by the server. Sign in again.',
  'access-token-lapsed':
    'Signed out: the sign-in server gave no refresh token, so the sign-in lasted only as long as its access token, which has now lapsed. Sign in again.',
};

/**
 * The session cannot continue without the person signing in again. Nothing
 * else is touched: the account's mirror and outbox stay as they are.
 */
export class SignedOutError extends AuthError {
  override readonly name = 'SignedOutError';
  readonly type = 'signed-out';
  constructor(readonly reason: SignedOutReason) {
    super(SIGNED_OUT_MESSAGES[reason]);
  }
}

export type AttemptEndReason = 'timeout' | 'cancelled' | 'superseded';

const ATTEMPT_END_MESSAGES: Record<AttemptEndReason, string> = {
  timeout: 'Sign-in timed out waiting for the browser.',
  cancelled: 'Sign-in was cancelled.',
  superseded: 'Sign-in was restarted; this attempt was abandoned.',
};

/** A browser sign-in attempt ended without an answer from the browser. */
export class SignInAttemptEndedError extends AuthError {
  override readonly name = 'SignInAttemptEndedError';
  readonly type = 'attempt-ended';
  constructor(readonly reason: AttemptEndReason) {
    super(ATTEMPT_END_MESSAGES[reason]);
  }
}

/** The loopback listener could not bind (for instance an explicitly chosen port is taken). */
export class LoopbackListenError extends AuthError {
  override readonly name = 'LoopbackListenError';
  readonly type = 'loopback-unavailable';
  constructor(
    readonly port: number,
    /** The system error code, e.g. `EADDRINUSE`, when known. */
    readonly code: string | null,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `Cannot receive the sign-in: port ${port} on 127.0.0.1 is already in use.`
        : `Cannot receive the sign-in: listening on 127.0.0.1 port ${port} failed${code ? ` (${code})` : ''}.`,
    );
  }
}

/** The injected `openUrl` failed; the attempt is abandoned. */
export class BrowserOpenError extends AuthError {
  override readonly name = 'BrowserOpenError';
  readonly type = 'browser-open-failed';
  constructor() {
    super('Could not open the sign-in page in the browser.');
  }
}

/** The token endpoint answered 2xx with something that is not the documented token answer. */
export class TokenResponseInvalidError extends AuthError {
  override readonly name = 'TokenResponseInvalidError';
  readonly type = 'token-response-invalid';
  constructor(
    readonly stage: OAuthStage,
    /** Which fields were wrong (paths only, never values). */
    readonly fields: readonly string[],
  ) {
    super(
      `The sign-in server's token answer was not understood${fields.length ? ` (fields: ${fields.join(', ')})` : ''}.`,
    );
  }
}

/** The sign-in server could not be reached, or answered with something other than an RFC 6749 answer. */
export class AuthServerUnavailableError extends AuthError {
  override readonly name = 'AuthServerUnavailableError';
  readonly type = 'auth-server-unavailable';
  constructor(
    readonly stage: OAuthStage,
    /** The HTTP status, or null when no answer arrived. */
    readonly status: number | null,
  ) {
    super(
      status === null
        ? 'The sign-in server could not be reached.'
        : `The sign-in server answered with an unexpected status ${status}.`,
    );
  }
}

/**
 * The secret store failed. On a refresh this means the new refresh token could
 * not be saved, so the new access token was not handed out either.
 */
export class SecretStoreError extends AuthError {
  override readonly name = 'SecretStoreError';
  readonly type = 'secret-store-failed';
  constructor(
    readonly operation: 'get' | 'set' | 'delete',
    /** The failure's code (e.g. `EACCES`) when it had one; the cause itself is dropped in case it holds a secret. */
    readonly code: string | null,
  ) {
    super(
      operation === 'set'
        ? `Could not save the sign-in securely${code ? ` (${code})` : ''}; the renewed sign-in was not used.`
        : `Could not ${operation === 'get' ? 'read' : 'remove'} the saved sign-in${code ? ` (${code})` : ''}.`,
    );
  }
}

/** A pasted string is not an access token this app accepts. */
export class PastedTokenRefusedError extends AuthError {
  override readonly name = 'PastedTokenRefusedError';
  readonly type = 'pasted-token-refused';
  constructor(readonly reason: 'empty' | 'unknown-prefix' | 'malformed') {
    super(
      reason === 'empty'
        ? 'Paste an access token.'
        : reason === 'unknown-prefix'
          ? 'This is not an access token for this service: it should start with svc_live_ or svc_test_ (or tsk_live_ / tsk_test_ for tokens made before the rename).'
          : 'This access token is malformed: it has spaces or characters a token never has.',
    );
  }
}

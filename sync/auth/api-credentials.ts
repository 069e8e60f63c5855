// Hands a TokenKeeper to the API client (sync/api/) in the terms it acts on: an
// unreachable sign-in server is a NetworkError there (try again later, the
// session stays) that names the sign-in server, and a session that is over is
// its SignedOutError, saying to sign in again rather than to get a token.
import type { CredentialSource } from '../api/credentials';
import {
  NetworkError,
  SignedOutError as ApiSignedOutError,
  type SignedOutReason as ApiSignedOutReason,
} from '../api/errors';
import { AuthServerUnavailableError, SignedOutError, type SignedOutReason } from './auth-errors';
import type { TokenKeeper } from './token-keeper';

export interface ApiCredentialsOptions {
  /**
   * How the person signs in again, for the message when the session ends:
   * `login --db FILE` in the headless command; default "sign in again".
   */
  signInAgain?: string;
}

export function apiCredentials(keeper: TokenKeeper, options: ApiCredentialsOptions = {}): CredentialSource {
  return {
    getAccessToken: () => translated('credentials.access-token', keeper, options, keeper.getAccessToken()),
    refresh: () => translated('credentials.refresh', keeper, options, keeper.refresh()),
  };
}

/** The saved sign-in (OAuth session) has ended: only signing in again helps, a token would not. */
export class SessionEndedError extends ApiSignedOutError {
  constructor(
    operation: string,
    /** Why, in the auth layer's terms. */
    readonly sessionReason: SignedOutReason,
    /** What the person runs or clicks to sign in again. */
    readonly signInAgain: string,
  ) {
    super(operation, API_REASONS[sessionReason], null);
    this.message = `${SESSION_ENDED[sessionReason]}; ${signInAgain} to resume syncing (queued edits are kept)`;
  }
}

/** The sign-in server (not the API) could not be reached, or failed, while renewing the session. */
export class SignInServerUnreachableError extends NetworkError {
  constructor(
    operation: string,
    code: string,
    /** The sign-in server's address (`auth_url`). */
    readonly authUrl: string,
    readonly status: number | null,
  ) {
    super(
      operation,
      code,
      status === null
        ? `the sign-in server ${authUrl} could not be reached`
        : `the sign-in server ${authUrl} answered ${status}`,
      1,
    );
  }
}

// The API client's reasons are the service's 401 types; these are the nearest.
const API_REASONS: Record<SignedOutReason, ApiSignedOutReason> = {
  'refresh-token-refused': 'token-revoked',
  'no-refresh-token': 'token-invalid',
  'access-token-lapsed': 'token-expired',
};

const SESSION_ENDED: Record<SignedOutReason, string> = {
  'refresh-token-refused':
    'signed out: the sign-in server no longer accepts the saved sign-in (its refresh token was refused)',
  'no-refresh-token': 'signed out: no saved sign-in was found',
  'access-token-lapsed':
    'signed out: the sign-in server gave no refresh token, so the sign-in lasted only as long as its access token, which has lapsed',
};

async function translated(
  operation: string,
  keeper: TokenKeeper,
  options: ApiCredentialsOptions,
  pending: Promise<string>,
): Promise<string> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof AuthServerUnavailableError) {
      const code = error.status === null ? 'AUTH_SERVER_UNREACHABLE' : `AUTH_SERVER_HTTP_${error.status}`;
      throw new SignInServerUnreachableError(operation, code, keeper.authUrl, error.status);
    }
    if (error instanceof SignedOutError) {
      throw new SessionEndedError(operation, error.reason, options.signInAgain ?? 'sign in again');
    }
    throw error;
  }
}

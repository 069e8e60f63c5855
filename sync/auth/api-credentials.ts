// Hands a TokenKeeper to the API client (sync/api/) in the terms it acts on: an
// unreachable sign-in server is a NetworkError there (try again later, the
// session stays), and a session that is over is its SignedOutError.
import type { CredentialSource } from '../api/credentials';
import { NetworkError, SignedOutError as ApiSignedOutError } from '../api/errors';
import { AuthServerUnavailableError, SignedOutError } from './auth-errors';
import type { TokenKeeper } from './token-keeper';

export function apiCredentials(keeper: TokenKeeper): CredentialSource {
  return {
    getAccessToken: () => translated('credentials.access-token', keeper.getAccessToken()),
    refresh: () => translated('credentials.refresh', keeper.refresh()),
  };
}

async function translated(operation: string, pending: Promise<string>): Promise<string> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof AuthServerUnavailableError) {
      const code = error.status === null ? 'AUTH_SERVER_UNREACHABLE' : `AUTH_SERVER_HTTP_${error.status}`;
      throw new NetworkError(operation, code, error.message, 1);
    }
    if (error instanceof SignedOutError) throw new ApiSignedOutError(operation, 'token-expired', null);
    throw error;
  }
}

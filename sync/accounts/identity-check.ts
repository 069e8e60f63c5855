// Asks the service whose token this is (`GET /v1/me`) before an account keeps
// it: a pasted token, or the access token a browser sign-in just brought.
import type { Dispatcher } from 'undici';
import { ApiClient, type ApiClientOptions } from '../api/api-client';
import { staticCredentials } from '../api/credentials';
import { SignedOutError as ApiSignedOutError } from '../api/errors';
import { meOperations } from '../api/operations';
import { TokenNotAcceptedError } from './account-errors';
import type { AccountIdentity } from './account-registry';

export interface IdentityCheckOptions {
  dispatcher?: Dispatcher;
  /** Extra client settings (tests shorten retries). */
  client?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'credentials' | 'dispatcher'>>;
}

/**
 * The identity behind `token` on the service at `baseUrl`. A token the service
 * refuses is TokenNotAcceptedError; an unreachable service is the API client's
 * NetworkError; other failures are its typed errors.
 */
export async function identityOfToken(
  baseUrl: string,
  token: string,
  options: IdentityCheckOptions = {},
): Promise<AccountIdentity> {
  const client = new ApiClient({
    ...options.client,
    baseUrl,
    credentials: staticCredentials(token),
    ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
  });
  try {
    const answer = await client.read(meOperations.get, {}, { lane: 'user' });
    if (answer.status !== 200) throw new TypeError('GET /v1/me answered 304 to a request without an ETag');
    const me = answer.body;
    return { user_id: me.user_id, username: me.username, email: me.email ?? null, org_id: me.org_id ?? null };
  } catch (error) {
    if (error instanceof ApiSignedOutError) throw new TokenNotAcceptedError(error.reason);
    throw error;
  } finally {
    await client.close();
  }
}

// Who a database's stored sign-in is: /v1/me asked with the credentials the
// login command kept there, as sync would send them.
import type { Me } from '../../../protocol/me';
import { ApiClient } from '../../api/api-client';
import { meOperations } from '../../api/operations';
import { resolveStoredCredentials } from '../login-command';

export async function meOfStoredSignIn(db: string): Promise<Me> {
  const stored = await resolveStoredCredentials(db);
  if (!stored) throw new Error('no stored sign-in');
  const client = new ApiClient({ baseUrl: stored.baseUrl, credentials: stored.credentials });
  try {
    const answer = await client.read(meOperations.get, {});
    if (answer.status !== 200) throw new Error('unexpected 304');
    return answer.body;
  } finally {
    await client.close();
  }
}

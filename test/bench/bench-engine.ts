// The sync engine as the benches open it: a mirror file, a client, and the
// identity /v1/me answers. Apart so that the sync bench and its warm-up
// process (each its own entry point) sign in alike.
import { openMirror } from '../../db/open-mirror';
import type { Mirror } from '../../db/mirror';
import type { ApiClient } from '../../sync/api/api-client';
import { meOperations } from '../../sync/api/operations';
import { SyncEngine, type SyncEngineDeps } from '../../sync/engine/sync-engine';

/** Opens `file` as a mirror and an engine over it for the user `api` signs in as. */
export async function benchEngine(
  file: string,
  api: ApiClient,
  options: Omit<SyncEngineDeps, 'mirror' | 'api' | 'me'>,
): Promise<{ mirror: Mirror; engine: SyncEngine }> {
  const mirror = await openMirror(file);
  const me = await api.read(meOperations.get, {});
  if (me.status !== 200) throw new Error('/v1/me answered 304 to a first read');
  const engine = new SyncEngine({
    mirror,
    api,
    me: { username: me.body.username, user_id: me.body.user_id },
    ...options,
  });
  return { mirror, engine };
}

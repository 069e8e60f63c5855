// The account a handler test reads and writes through: a real mirror file,
// filled by the sync engine from the emulator where the test needs the
// service's records, behind the ActiveMirror the handlers are given.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mirror } from '../../../db/mirror';
import { openMirror } from '../../../db/open-mirror';
import type { RunningEmulator } from '../../../emulator/start';
import { ApiClient } from '../../../sync/api/api-client';
import { staticCredentials } from '../../../sync/api/credentials';
import { SyncEngine } from '../../../sync/engine/sync-engine';
import type { ActiveMirror } from '../task-handlers';

/**
 * Account acct-1 over `mirror`, writable, its "edited" and "task opened"
 * signals dropped; `parts` replaces any of it (a test that counts edits, a
 * service to ask for a view's rows).
 */
export function testAccount(
  mirror: Mirror,
  me: ActiveMirror['me'] = { username: 'ada', user_id: 'usr_ada' },
  parts: Partial<ActiveMirror> = {},
): ActiveMirror {
  return {
    accountId: 'acct-1',
    mirror,
    me,
    readOnly: false,
    edited: () => undefined,
    refreshActivity: () => undefined,
    ...parts,
  };
}

export interface PulledMirror {
  dir: string;
  mirror: Mirror;
  api: ApiClient;
}

/**
 * A mirror in a fresh folder named after `prefix`, filled by one pull of the
 * sync engine from `emulator` (what a first sync leaves), and the API client
 * it pulled with; the caller closes both and removes `dir`.
 */
export async function pulledMirror(emulator: RunningEmulator, prefix: string): Promise<PulledMirror> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const mirror = await openMirror(join(dir, 'mirror.sqlite'));
  const api = new ApiClient({
    baseUrl: emulator.baseUrl,
    credentials: staticCredentials(emulator.tokens.live),
  });
  const engine = new SyncEngine({ mirror, api, me: emulator.me, pullInWorker: false });
  await engine.pullOnce();
  await engine.close();
  return { dir, mirror, api };
}

/**
 * Closes the pulled mirror and its API client, stops the emulator and removes
 * the folder; any of them may be missing, as after a setup that failed part way.
 */
export async function closePulledMirror(
  emulator: RunningEmulator | undefined,
  { dir, mirror, api }: Partial<PulledMirror>,
): Promise<void> {
  mirror?.close();
  await api?.close();
  await emulator?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

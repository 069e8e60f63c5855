// Opening a mirror whose file an older app wrote: its pending migrations (at
// a million tasks, seconds of rebuilding tables) run in a worker thread, so
// main's event loop stays free and the window can say what is happening; the
// mirror then opens on main as usual, with nothing left to migrate.
import { pendingMigrations } from '../../db/open-mirror';
import { deserializeError, type SerializedError } from '../pull/worker-protocol';
import { startWorker } from '../pull/worker-pull-store';

/** What the upgrade worker is started with (its `workerData`). */
export interface UpgradeWorkerData {
  file: string;
  nativeBinding?: string;
}

/** What the upgrade worker tells its opener: each migration applied, then the end. */
export type UpgradeMessage =
  { type: 'migrated'; name: string } | { type: 'upgraded' } | { type: 'failed'; error: SerializedError };

/** How far an upgrade is: the migrations it has to apply and those applied so far (committed only at `ready`). */
export type MirrorUpgrade =
  | { state: 'upgrading'; migrations: readonly string[]; applied: readonly string[] }
  | { state: 'ready'; migrations: readonly string[]; applied: readonly string[] };

export interface MirrorUpgradeOptions {
  /**
   * The worker's entry module. Default: the source beside this module
   * (Node: tests, the browser host). The Electron app passes its build,
   * out/main/mirror-upgrade-worker.js (electron.vite.config.ts).
   */
  workerUrl?: URL | string;
  /** better-sqlite3's addon for the worker's connection (Electron's build in the app). */
  nativeBinding?: string;
  /** Told as the upgrade starts, after each migration and when it is done; never called when nothing is pending. */
  onProgress?: (upgrade: MirrorUpgrade) => void;
}

function defaultWorkerUrl(): URL {
  return new URL('./mirror-upgrade-worker.ts', import.meta.url);
}

/**
 * Applies the file's pending migrations in a worker and resolves with their
 * names once the worker closed its connection ([] when none were pending: no
 * worker is started). Rejects with the worker's error, rebuilt as its class
 * (MirrorVersionError for a failed migration, MirrorStorageError); a failed
 * run leaves the file as it was (the migrations share one transaction).
 */
export async function upgradeMirrorInWorker(
  file: string,
  options: MirrorUpgradeOptions = {},
): Promise<readonly string[]> {
  const binding = options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {};
  const migrations = pendingMigrations(file, binding);
  if (migrations.length === 0) return [];
  const applied: string[] = [];
  options.onProgress?.({ state: 'upgrading', migrations, applied: [] });
  const data: UpgradeWorkerData = { file, ...binding };
  const worker = startWorker(options.workerUrl ?? defaultWorkerUrl(), data);
  let outcome: UpgradeMessage | null = null;
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: UpgradeMessage) => {
      if (message.type === 'migrated') {
        applied.push(message.name);
        options.onProgress?.({ state: 'upgrading', migrations, applied: [...applied] });
      } else outcome = message;
    });
    worker.once('error', reject);
    // Resolved on exit, not on the last message: main's connection must open after the worker's closed.
    worker.once('exit', () => resolve());
  });
  const ended = outcome as UpgradeMessage | null;
  if (ended === null) throw new Error(`the upgrade of ${file} ended without an answer`);
  if (ended.type === 'failed') throw deserializeError(ended.error);
  options.onProgress?.({ state: 'ready', migrations, applied: [...applied] });
  return applied;
}

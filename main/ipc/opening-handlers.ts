// What the window shows while the accounts open: main opens the window first
// and the accounts after, and an older app's mirror is upgraded meanwhile (in
// a worker: sync/accounts/mirror-upgrade.ts). The page asks how far that is
// (`app:opening`, answered before any other handler exists) and is told of
// each step (`app:opening-changed`); its other calls wait at the gate.
import type { MirrorUpgrade } from '../../sync/accounts/mirror-upgrade';
import type { Opening } from '../../ipc/contract';
import type { IpcHandlers } from './gate';

export interface OpeningReport {
  /** Register with the gate as soon as it exists. */
  readonly handlers: IpcHandlers;
  /** AccountManager's `onMirrorUpgrade`. */
  mirrorUpgrade(accountId: string, upgrade: MirrorUpgrade): void;
}

export function openingReport(emit: (event: 'app:opening-changed', payload: Opening) => void): OpeningReport {
  let opening: Opening = null;
  return {
    handlers: { 'app:opening': () => opening },
    mirrorUpgrade(accountId, upgrade) {
      opening =
        upgrade.state === 'upgrading'
          ? { account_id: accountId, applied: upgrade.applied.length, total: upgrade.migrations.length }
          : null;
      emit('app:opening-changed', opening);
    },
  };
}

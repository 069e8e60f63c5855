// The undo and redo calls: the last of the person's own task changes of this
// session undone or redone through the outbox (db/undo/undo-history.ts), the
// tasks it touched announced, and the labels of what is next on each stack.
// No Electron: main and the end-to-end host register the same map.
import { undoHistoryOf } from '../../db/undo/undo-history';
import type { Undone } from '../../ipc/undo-schemas';
import type { IpcGate, IpcHandlers } from './gate';
import { type ActiveMirror, signedInAccount, writableAccount } from './task-handlers';

export interface UndoHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
}

export function undoHandlers(dependencies: UndoHandlerDependencies): IpcHandlers {
  async function step(way: 'undo' | 'redo'): Promise<Undone> {
    const account = writableAccount(dependencies.active, 'tasks', 'task');
    const history = undoHistoryOf(account.mirror);
    const done = way === 'undo' ? await history.undo() : await history.redo();
    const touched = done?.touched ?? null;
    if (touched !== null) {
      account.edited();
      // A re-created task has a new id, and a bulk change's tasks are many: every list reads again.
      dependencies.emit('mirror:changed', {
        account_id: account.accountId,
        collections: ['tasks'],
        task_ids: touched.length > 50 ? null : touched,
        remapped: [],
      });
    }
    const batch = done?.batch ?? null;
    return {
      done: done?.label ?? null,
      labels: await history.labels(),
      batch: batch === null ? null : { batch_id: batch.batchId, queued: batch.queued },
    };
  }

  return {
    'undo:labels': () => undoHistoryOf(signedInAccount(dependencies.active).mirror).labels(),
    'undo:undo': () => step('undo'),
    'undo:redo': () => step('redo'),
  };
}

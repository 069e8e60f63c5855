// The bulk-change calls: a change of many tasks queued as one edit per task
// under one batch id (db/tasks/bulk-change.ts), in short steps so that main
// answers other calls meanwhile; its progress; and a stop of what is not sent.
// No Electron: main and the end-to-end host register the same map.
import type { BulkTarget } from '../../db/tasks/bulk-change';
import { queueBulkChange, stopBulkChange } from '../../db/tasks/bulk-change';
import type { BulkTaskChange, BulkTaskChanged } from '../../db/tasks/bulk-task-change';
import { undoHistoryOf } from '../../db/undo/undo-history';
import type { BulkChangeInput, BulkTargetInput } from '../../ipc/bulk-schemas';
import type { IpcGate, IpcHandlers } from './gate';
import { type ActiveMirror, signedInAccount, taskQueryPairs, writableAccount } from './task-handlers';

export interface BulkHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
  /** Now, for `overdue` and the current sprint in a query (tests pass a fixed one). */
  readonly now?: () => Date;
}

function targetOf(target: BulkTargetInput): BulkTarget {
  return 'task_ids' in target
    ? { taskIds: target.task_ids }
    : { query: taskQueryPairs(target.query), except: target.except, parent: target.parent };
}

function changeOf(change: BulkChangeInput): BulkTaskChange {
  if ('delete' in change) return { kind: 'delete' };
  // Fields left out of the patch are not part of the change (undefined is no value to send).
  const set = Object.fromEntries(Object.entries(change.set).filter(([, value]) => value !== undefined));
  return { kind: 'edit', set, addTags: change.tags_add ?? [], removeTags: change.tags_remove ?? [] };
}

export function bulkHandlers(dependencies: BulkHandlerDependencies): IpcHandlers {
  const now = dependencies.now ?? (() => new Date());

  function announce(account: ActiveMirror, taskIds: string[] | null = null): void {
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      collections: ['tasks'],
      task_ids: taskIds,
      remapped: [],
    });
  }

  return {
    'tasks:bulk-edit': async ({ target, change }) => {
      const account = writableAccount(dependencies.active, 'tasks', 'task');
      const changed: BulkTaskChanged[] = [];
      const outcome = await queueBulkChange(account.mirror, targetOf(target), changeOf(change), {
        me: account.me.username,
        today: now().toISOString().slice(0, 10),
        onChanged: (task) => changed.push(task),
        // The rows a list shows first are told changed once queued, not after every task is.
        onFirstQueued: () =>
          announce(
            account,
            changed.map((task) => task.taskId),
          ),
      });
      // The whole change is one step to undo.
      undoHistoryOf(account.mirror).bulkChanged(changed);
      // Told even when nothing queued: a task set back to the server's value drops the change that waited.
      account.edited();
      announce(account);
      return {
        batch_id: outcome.batchId,
        matched: outcome.matched,
        queued: outcome.queued,
        set_back: outcome.setBack,
        unchanged: outcome.unchanged,
      };
    },

    'tasks:bulk-progress': ({ batch_id }) =>
      signedInAccount(dependencies.active).mirror.outbox.batchProgress(batch_id),

    'tasks:bulk-stop': async ({ batch_id }) => {
      const account = signedInAccount(dependencies.active);
      const givenUp = await stopBulkChange(account.mirror, batch_id);
      if (givenUp > 0) announce(account);
      return { given_up: givenUp, progress: account.mirror.outbox.batchProgress(batch_id) };
    },
  };
}

// The collection-write calls: each queues through the mirror's writes of its
// kind (db/collection-writes.ts, the outbox's kinds), waiting for the pull
// worker's write lock on a timer, then tells the screens which collection
// changed and the engine that something waits to be sent.
import type { CollectionWrites } from '../../db/collection-writes';
import { writeWhenFree } from '../../db/write-when-free';
import type { CollectionKind } from './collection-schemas';
import type { IpcGate, IpcHandlers } from './gate';
import { IpcHandlerError } from './gate';
import { type ActiveMirror, writableAccount } from './task-handlers';

export interface CollectionHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
}

// A section's, goal's or milestone's delete unfiles its tasks on screen at once (db/task-unfiling.ts): the task screens reload too.
const UNFILES_TASKS: ReadonlySet<CollectionKind> = new Set(['section', 'goal', 'milestone']);

export function collectionHandlers(dependencies: CollectionHandlerDependencies): IpcHandlers {
  function writesOf(account: ActiveMirror, kind: CollectionKind): CollectionWrites {
    const writes = account.mirror.writesOf(kind);
    if (writes === null) throw new IpcHandlerError('internal', `No writes for ${kind}s.`);
    return writes;
  }

  function changed(account: ActiveMirror, writes: CollectionWrites, kind: CollectionKind): void {
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      collections: [writes.collection, ...(UNFILES_TASKS.has(kind) ? ['tasks'] : [])],
      task_ids: null,
      remapped: [],
    });
    account.edited();
  }

  return {
    'collection:create': async ({ kind, fields, parent_id }) => {
      const account = writableAccount(dependencies.active, `${kind}s`, kind);
      const writes = writesOf(account, kind);
      const created = await writeWhenFree(account.mirror, () => writes.create(fields, parent_id ?? null));
      changed(account, writes, kind);
      return { id: created.id, op_id: created.opId };
    },
    'collection:edit': async ({ kind, id, patch }) => {
      const account = writableAccount(dependencies.active, `${kind}s`, kind);
      const writes = writesOf(account, kind);
      const queued = await writeWhenFree(account.mirror, () => writes.edit(id, patch));
      changed(account, writes, kind);
      return { id, op_id: queued?.opId ?? null };
    },
    'collection:delete': async ({ kind, id }) => {
      const account = writableAccount(dependencies.active, `${kind}s`, kind);
      const writes = writesOf(account, kind);
      const queued = await writeWhenFree(account.mirror, () => writes.delete(id));
      changed(account, writes, kind);
      return { id, op_id: queued?.opId ?? null };
    },
  };
}

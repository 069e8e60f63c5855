// The collection-write calls: each queues through the mirror's writes of its
// kind (db/collections/collection-writes.ts, the outbox's kinds), waiting for the pull
// worker's write lock on a timer, then tells the screens which collection
// changed and the engine that something waits to be sent.
import type { CollectionWrites } from '../../db/collections/collection-writes';
import { isDeletable, type WritableKind } from '../../protocol/writable-kind';
import { collectionKindOf } from '../../protocol/writable-kinds';
import { writeWhenFree } from '../../db/write-when-free';
import type { CollectionKind } from '../../ipc/collection-schemas';
import type { IpcGate, IpcHandlers } from './gate';
import { IpcHandlerError } from './gate';
import { type ActiveMirror, writableAccount } from './task-handlers';

export interface CollectionHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
}

/** Its descriptor: the collection the screens reload, and whether a delete unfiles tasks. */
function descriptorOf(kind: CollectionKind): WritableKind {
  const descriptor = collectionKindOf(kind);
  if (descriptor === null) throw new IpcHandlerError('internal', `No writes for ${kind}.`);
  return descriptor;
}

export function collectionHandlers(dependencies: CollectionHandlerDependencies): IpcHandlers {
  function writesOf(account: ActiveMirror, kind: CollectionKind): CollectionWrites {
    const writes = account.mirror.writesOf(kind);
    if (writes === null) throw new IpcHandlerError('internal', `No writes for ${kind}s.`);
    return writes;
  }

  function changed(account: ActiveMirror, writes: CollectionWrites, kind: CollectionKind): void {
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      // A delete unfiles its tasks on screen at once (db/tasks/task-unfiling.ts): the task screens reload too.
      collections: [writes.collection, ...(isDeletable(descriptorOf(kind)) ? ['tasks'] : [])],
      task_ids: null,
      remapped: [],
    });
    account.edited();
  }

  return {
    'collection:create': async ({ kind, fields, parent_id }) => {
      // An upload names a file the app checked and kept (attachment:add); the page never names one itself.
      if (kind === 'attachment')
        throw new IpcHandlerError('validation', 'Attachments are added through attachment:add.');
      const account = writableAccount(dependencies.active, descriptorOf(kind).collection, kind);
      const writes = writesOf(account, kind);
      const created = await writeWhenFree(account.mirror, () => writes.create(fields, parent_id ?? null));
      changed(account, writes, kind);
      return { id: created.id, op_id: created.opId };
    },
    'collection:edit': async ({ kind, id, patch }) => {
      const account = writableAccount(dependencies.active, descriptorOf(kind).collection, kind);
      const writes = writesOf(account, kind);
      const queued = await writeWhenFree(account.mirror, () => writes.edit(id, patch));
      changed(account, writes, kind);
      return { id, op_id: queued?.opId ?? null };
    },
    'collection:delete': async ({ kind, id }) => {
      const account = writableAccount(dependencies.active, descriptorOf(kind).collection, kind);
      const writes = writesOf(account, kind);
      const queued = await writeWhenFree(account.mirror, () => writes.delete(id));
      changed(account, writes, kind);
      return { id, op_id: queued?.opId ?? null };
    },
  };
}

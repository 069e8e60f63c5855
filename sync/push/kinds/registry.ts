// Every writable kind the pusher knows, by the outbox's entity_type: tasks and
// comments, which have their own ways, and the collection kinds derived from
// their descriptors (protocol/writable-kinds.ts).
import { COLLECTION_KINDS } from '../../../protocol/writable-kinds';
import { attachmentPushKind } from './attachment';
import { collectionPushKind } from './collection-kind';
import { commentPushKind } from './comment';
import type { PushKind } from './push-kind';
import { taskPushKind } from './task';

/** Collection kinds whose create is not a JSON body (an attachment is an upload). */
const OWN_KINDS: ReadonlyMap<string, () => PushKind> = new Map([['attachment', attachmentPushKind]]);

/** Every writable kind, in the order the app lists them. */
export const PUSH_KINDS: readonly PushKind[] = [
  taskPushKind,
  commentPushKind,
  ...COLLECTION_KINDS.map((kind) => OWN_KINDS.get(kind.entityType)?.() ?? collectionPushKind(kind)),
];
const KINDS: ReadonlyMap<string, PushKind> = new Map(PUSH_KINDS.map((kind) => [kind.entityType, kind]));

/** The kind of an operation; an entity type this version does not know is an error (never sent as a task). */
export function pushKindOf(entityType: string): PushKind {
  const kind = KINDS.get(entityType);
  if (!kind) throw new Error(`no writable kind '${entityType}' in this version`);
  return kind;
}

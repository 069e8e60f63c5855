// Every writable kind the pusher knows, by the outbox's entity_type. Adding a
// kind is a file beside these and one line here.
import { commentPushKind } from './comment';
import { goalPushKind } from './goal';
import { milestonePushKind } from './milestone';
import type { PushKind } from './push-kind';
import { sectionPushKind } from './section';
import { sprintPushKind } from './sprint';
import { taskPushKind } from './task';

/** Every writable kind, in the order the app lists them. */
export const PUSH_KINDS: readonly PushKind[] = [
  taskPushKind,
  commentPushKind,
  sectionPushKind,
  sprintPushKind,
  goalPushKind,
  milestonePushKind,
];

const KINDS: ReadonlyMap<string, PushKind> = new Map(PUSH_KINDS.map((kind) => [kind.entityType, kind]));

/** The kind of an operation; an entity type this version does not know is an error (never sent as a task). */
export function pushKindOf(entityType: string): PushKind {
  const kind = KINDS.get(entityType);
  if (!kind) throw new Error(`no writable kind '${entityType}' in this version`);
  return kind;
}

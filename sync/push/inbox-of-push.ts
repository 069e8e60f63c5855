// What a push tells the person's inbox: an edit of theirs that met a conflict,
// or one the service refused (422), on a task or a comment on it, or on a
// section, sprint, goal, milestone or view. Each keyed by the operation and
// what happened to it, so a push that meets the same again (a retry, a
// restart) adds nothing. Desktop notifications of conflicts are the
// notifier's (services/notify); these entries are only kept, never announced.
import type { Mirror } from '../../db/mirror';
import type { NewNotification } from '../../db/passes/change-feed';
import { collectionKindOf } from '../../protocol/writable-kinds';
import type { SyncEvent } from '../events/sync-events';

type PushOutcome = Extract<SyncEvent, { type: 'conflict' | 'push-failed' }>;

/** What an entry opens and names: a task (a comment's is its task's), or the record of another kind. */
interface Subject {
  entityType: string;
  entityId: string;
  /** The task's title or the record's name, as the mirror has it now. */
  title: string;
  /** Where the record shows, for the inbox to open it there (a section's board, a milestone's project). */
  place: Record<string, unknown>;
}

/** The other kinds an entry opens (a view's pin is only the sidebar's order of views: nothing to open). */
const OPENED_KINDS: ReadonlySet<string> = new Set(['section', 'sprint', 'goal', 'milestone', 'view']);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function subjectOf(
  event: PushOutcome,
  mirror: Pick<Mirror, 'tasks' | 'outbox' | 'writesOf'>,
): Subject | null {
  if (event.entityType === 'task' || event.entityType === 'comment') {
    let taskId = event.entityId;
    if (event.entityType === 'comment') {
      try {
        taskId = mirror.outbox.op(event.opId).parentId ?? '';
      } catch {
        // The operation went meanwhile: no task to open.
        return null;
      }
      if (taskId === '') return null;
    }
    return {
      entityType: 'task',
      entityId: taskId,
      title: text(mirror.tasks.get(taskId)?.task.title),
      place: {},
    };
  }
  const kind = collectionKindOf(event.entityType);
  if (kind === null || !OPENED_KINDS.has(kind.entityType)) return null;
  const record = mirror.writesOf(event.entityType)?.get(event.entityId);
  const place: Record<string, unknown> = {};
  // A section shows on its scope's board, a milestone among its project's.
  for (const field of ['scope_type', 'scope_id', kind.parentField]) {
    if (field !== null && record?.[field] !== undefined) place[field] = record[field];
  }
  return {
    entityType: kind.entityType,
    entityId: event.entityId,
    title: text(record?.name) || text(record?.title),
    place,
  };
}

/** The feed entry a push event stands for; null for other events and kinds the inbox does not open. */
export function inboxEntryOfPush(
  event: SyncEvent,
  mirror: Pick<Mirror, 'tasks' | 'outbox' | 'writesOf'>,
  forUser: string,
): NewNotification | null {
  if (event.type !== 'conflict' && event.type !== 'push-failed') return null;
  const subject = subjectOf(event, mirror);
  if (subject === null) return null;
  const base = { entityType: subject.entityType, entityId: subject.entityId, forUser };
  const summary = { title: subject.title, by: null, of: event.entityType, ...subject.place };
  if (event.type === 'conflict') {
    return {
      ...base,
      kind: `${subject.entityType}-conflict`,
      summary: { ...summary, conflict: event.conflict, fields: event.fields },
      key: `${subject.entityType}-conflict:${event.opId}:${event.conflict}:${event.fields.join(',')}`,
    };
  }
  return {
    ...base,
    kind: `${subject.entityType}-refused`,
    summary: { ...summary, message: event.error.message, status: event.error.status },
    key: `${subject.entityType}-refused:${event.opId}:${event.error.status ?? ''}:${event.error.type ?? ''}`,
  };
}

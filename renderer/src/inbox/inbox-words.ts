// What an inbox entry says: what happened to the task (or the section,
// sprint, goal, milestone or view), in a few words.
import type { InboxEntry } from '../../../ipc/inbox-schemas';
import { valueWord } from '../vocabulary/task-words';

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

export function inboxWhat(entry: InboxEntry): string {
  const by = entry.by === null ? '' : ` by ${entry.by}`;
  switch (entry.kind) {
    case 'task-assigned':
      return `Assigned to you${by}`;
    case 'task-status-changed':
      return `${valueWord(text(entry.detail.from))} → ${valueWord(text(entry.detail.to))}${by}`;
    case 'task-commented': {
      const count = typeof entry.detail.count === 'number' ? entry.detail.count : 1;
      return `${count === 1 ? 'New comment' : `${count} new comments`}${by}`;
    }
    case 'task-mentioned':
      return `${entry.by ?? 'Someone'} mentioned you${text(entry.detail.excerpt) ? `: ${text(entry.detail.excerpt)}` : ''}`;
    default:
      if (entry.kind === `${entry.entity_type}-conflict`) return conflictWords(entry);
      if (entry.kind === `${entry.entity_type}-refused`)
        return `Your change${ofRecord(entry)} was refused${text(entry.detail.message) ? `: ${text(entry.detail.message)}` : ''}`;
      return `${valueWord(entry.kind)}${by}`;
  }
}

/** " of the section" for a record other than a task (whose title says it is one). */
function ofRecord(entry: InboxEntry): string {
  return entry.entity_type === 'task' ? '' : ` of the ${valueWord(entry.entity_type).toLowerCase()}`;
}

function conflictWords(entry: InboxEntry): string {
  const fields = Array.isArray(entry.detail.fields)
    ? entry.detail.fields.filter((f) => typeof f === 'string')
    : [];
  const noun = entry.entity_type === 'task' ? 'task' : valueWord(entry.entity_type).toLowerCase();
  return entry.detail.conflict === 'deleted-remotely'
    ? `Your edit met the ${noun} deleted on the server`
    : `Your edit${ofRecord(entry)} met another change${fields.length > 0 ? ` of ${fields.join(', ')}` : ''}`;
}

// What an inbox entry says: what happened to the task, in a few words.
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
    case 'task-conflict': {
      const fields = Array.isArray(entry.detail.fields)
        ? entry.detail.fields.filter((f) => typeof f === 'string')
        : [];
      return entry.detail.conflict === 'deleted-remotely'
        ? 'Your edit met the task deleted on the server'
        : `Your edit met another change${fields.length > 0 ? ` of ${fields.join(', ')}` : ''}`;
    }
    case 'task-refused':
      return `Your change was refused${text(entry.detail.message) ? `: ${text(entry.detail.message)}` : ''}`;
    default:
      return `${valueWord(entry.kind)}${by}`;
  }
}

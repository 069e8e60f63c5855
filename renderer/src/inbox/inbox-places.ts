// Where an inbox entry of a record other than a task opens: the screen that
// shows the record (a section's board, a sprint, a goal, a milestone's
// project, a saved view), where its marks say what waits and what was refused.
import type { InboxEntry } from '../../../ipc/inbox-schemas';
import type { View } from '../store/view-store';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The screen of the entry's record; null for a task's entry (it opens in the editor) or a place not known. */
export function placeOf(entry: InboxEntry): View | null {
  const id = entry.entity_id;
  switch (entry.entity_type) {
    case 'section': {
      const scopeType = text(entry.detail.scope_type);
      const scopeId = text(entry.detail.scope_id);
      return scopeType === null || scopeId === null ? null : { kind: 'board', scopeType, scopeId };
    }
    case 'sprint':
      return { kind: 'sprint', sprintId: id };
    case 'goal':
      return { kind: 'goals', goalId: id };
    case 'milestone': {
      const projectId = text(entry.detail.project_id);
      return projectId === null ? null : { kind: 'milestones', projectId };
    }
    case 'view':
      return { kind: 'saved-view', viewId: id };
    default:
      return null;
  }
}

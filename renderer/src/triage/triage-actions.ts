// What triaging a task sends (gaps.md "Team intake"): accept, decline and
// duplicate-of are task edits of `review` (accept with the fields chosen), and
// a duplicate also a comment naming the original. Queued through the outbox
// like any edit, so they work offline and show their marks until sent.
import type { TaskPatchInput, TaskRow } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';

/** Where an accepted task goes: the accept form's four choices. */
export interface AcceptChoices {
  project_id: string | null;
  section_id: string | null;
  assignee: string | null;
  priority: string | null;
}

const CHOSEN_FIELDS = ['project_id', 'section_id', 'assignee', 'priority'] as const;

/** review=accepted and the choices that differ from the task's own (an unchanged field is not sent). */
export function acceptPatch(row: TaskRow, choices: AcceptChoices): TaskPatchInput {
  const patch: TaskPatchInput = { review: 'accepted' };
  for (const field of CHOSEN_FIELDS) {
    if (choices[field] !== row[field]) patch[field] = choices[field];
  }
  return patch;
}

/** The comment left on a duplicate: the original's title and id, so a reader can find it in any client. */
export function duplicateComment(original: Pick<TaskRow, 'task_id' | 'title'>): string {
  return `Duplicate of “${original.title}” (${original.task_id}).`;
}

export async function acceptTask(row: TaskRow, choices: AcceptChoices): Promise<void> {
  await invoke('task:edit', { task_id: row.task_id, patch: acceptPatch(row, choices) });
}

export async function declineTask(row: TaskRow): Promise<void> {
  await invoke('task:edit', { task_id: row.task_id, patch: { review: 'rejected' } });
}

/** Declined, then the comment: the comment is queued after the edit, so both go in that order. */
export async function markDuplicate(
  row: TaskRow,
  original: Pick<TaskRow, 'task_id' | 'title'>,
): Promise<void> {
  await invoke('task:edit', { task_id: row.task_id, patch: { review: 'rejected' } });
  await invoke('comment:create', { task_id: row.task_id, content: duplicateComment(original) });
}

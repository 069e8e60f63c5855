// What the milestones view says in words: a waiting change's state as a mark,
// a milestone's status, and what a delete does to the tasks filed under it.

/** A waiting change's state (the outbox's) as the mark a milestone carries. */
export const MILESTONE_PENDING_WORDS: Record<string, { label: string; hint: string; mark: string }> = {
  queued: {
    label: 'Not sent yet',
    hint: 'Saved here; sent when the server can be reached.',
    mark: 'pending',
  },
  in_flight: { label: 'Not sent yet', hint: 'Being sent to the server.', mark: 'pending' },
  failed: {
    label: 'Not saved',
    hint: 'The server refused this change: see pending changes.',
    mark: 'failed',
  },
  conflict: {
    label: 'Conflict',
    hint: 'Changed here and on the server: see pending changes.',
    mark: 'conflict',
  },
  blocked: {
    label: 'Read-only',
    hint: 'This account cannot change milestones; the change was not sent.',
    mark: 'blocked',
  },
};

/** `open` / `completed` as a person reads them; an unknown status is shown as sent. */
export function milestoneStatusWord(status: string | null): string {
  if (status === null || status === 'open') return 'Open';
  if (status === 'completed') return 'Completed';
  return status;
}

function tasksWord(count: number): string {
  return `${count} task${count === 1 ? '' : 's'}`;
}

/** The question before a delete: the milestone goes, its tasks stay in the project, unfiled. */
export function deleteQuestion(name: string, filed: number): string {
  const tasks =
    filed === 0
      ? 'No task is filed under it.'
      : filed === 1
        ? 'Its one task stays in the project, filed under no milestone.'
        : `Its ${tasksWord(filed)} stay in the project, filed under no milestone.`;
  return `Delete milestone ‘${name}’? ${tasks}`;
}

/** The notice after a delete. */
export function deletedWords(name: string, filed: number): string {
  return filed === 0 ? `Deleted ‘${name}’` : `Deleted ‘${name}’; ${tasksWord(filed)} unfiled`;
}

// What the milestones view says in words: a milestone's status, and what a
// delete does to the tasks filed under it (a waiting change's mark:
// vocabulary/sync-mark-words.ts).

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

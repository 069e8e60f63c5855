// What the goals screens say in words: what a delete did to the tasks that were
// filed under the goal, and the goals a task's Goal choice offers (a waiting
// change's mark: vocabulary/sync-mark-words.ts).
import type { Workspace } from '../../../ipc/screen-schemas';
import { markOfState, unsentWords } from './sync-mark-words';

/** A goal as the goals screens show it (workspace:get). */
export type GoalSummary = Workspace['goals'][number];

/** How many tasks are filed under a goal, counted as the confirmation and the notice say it. */
export interface FiledCount {
  count: number;
  /** More were filed than were counted. */
  more: boolean;
}

function tasksWord({ count, more }: FiledCount): string {
  return `${more ? 'more than ' : ''}${count} task${count === 1 && !more ? '' : 's'}`;
}

/** The question before a delete: what becomes of the goal's tasks. */
export function deleteQuestion(name: string, filed: FiledCount): string {
  if (filed.count === 0) return `Delete the goal ‘${name}’? No tasks are filed under it.`;
  const one = filed.count === 1 && !filed.more;
  const count = tasksWord(filed);
  return `Delete the goal ‘${name}’? ${count.charAt(0).toUpperCase()}${count.slice(1)} ${one ? 'is' : 'are'} filed under it; ${one ? 'it stays' : 'they stay'} in the project without a goal.`;
}

/** What a delete did, said once it is queued ("Deleted ‘Q3 launch’; 4 tasks no longer have a goal"). */
export function deletedWords(name: string, filed: FiledCount): string {
  if (filed.count === 0) return `Deleted ‘${name}’; no tasks were filed under it.`;
  const verb = filed.count === 1 && !filed.more ? 'has' : 'have';
  return `Deleted ‘${name}’; ${tasksWord(filed)} no longer ${verb} a goal.`;
}

/** A goal as the task editor's Goal choice offers it. */
export interface GoalOption {
  value: string;
  label: string;
}

/**
 * The goals a task of `projectId` can be filed under: its project's only, since the service refuses
 * another project's goal (422), so a task without a project has none. A goal still waiting to be sent
 * is offered: the task's push waits for it and gets its server id.
 */
export function goalOptions(goals: readonly GoalSummary[], projectId: string | null): GoalOption[] {
  if (projectId === null) return [];
  return goals
    .filter((goal) => goal.project_id === projectId)
    .map((goal) => ({
      value: goal.goal_id,
      label: `${goal.name}${unsentWords(markOfState(goal.pending) === 'pending')}${goal.status === 'closed' ? ' (closed)' : ''}`,
    }));
}

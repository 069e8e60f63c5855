// A team's intake (gaps.md "Team intake"): its tasks waiting for review, as the
// task list's own query (the team and review=pending) answered by the mirror,
// so the triage screen and the sidebar's counts read the same tasks, offline
// too, and follow each pull and each triage made here.
import type { InvokeInput } from '../../../ipc/contract';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';
import { useBridgeRead } from './use-bridge-read';

/** The intake is read whole: a team's untriaged work is tens of tasks, not thousands. */
const INTAKE_LIMIT = 1000;

function intakeQuery(teamId: string): TaskListQueryInput {
  return {
    filter: { team: [teamId], review: ['pending'] },
    sort_by: 'created_at',
    sort_order: 'asc',
  };
}

/** The triage screen's read: every task of the intake, oldest first. */
export function intakeRequest(teamId: string): InvokeInput<'tasks:query'> {
  return { query: intakeQuery(teamId), limit: INTAKE_LIMIT };
}

const NONE_COUNTED: Readonly<Record<string, number>> = {};

/**
 * How many tasks wait in each team's intake, by team id (the same tasks as
 * intakeRequest's, counted for every team at once), read again when tasks change.
 */
export function useIntakeCounts(): Readonly<Record<string, number>> {
  // A triage queued here leaves the intake at once; a pull brings new ones.
  const read = useBridgeRead('tasks:intake-counts', undefined, { reloadOn: { collections: ['tasks'] } });
  return read.data ?? NONE_COUNTED;
}

// Where a task link leads: to the one signed-in account whose mirror holds the
// task, to a choice when several do, or to a notice when none does or the link
// is refused. Reads mirrors only; main acts on the answer (switch, open, ask).
import type { Mirror } from '../../db/mirror';
import { parseTaskLink, type TaskLinkProblem } from './task-link';

/** What the router reads of an account: its state and whether its mirror shows the task. */
export interface LinkAccount {
  readonly id: string;
  readonly state: 'signed-in' | 'read-only' | 'signed-out';
  showsTask(taskId: string): boolean;
}

/**
 * Whether a mirror shows the task, as `task:get` would: a task the mirror hides
 * (deleted here, the delete waiting to be sent) is not held.
 */
export function mirrorShowsTask(mirror: Pick<Mirror, 'tasks'>, taskId: string): boolean {
  const found = mirror.tasks.get(taskId);
  return found !== null && !found.hidden;
}

export type TaskLinkRoute =
  /** One account holds it: switch to it (when not shown) and open the task. */
  | { readonly kind: 'open-task'; readonly accountId: string; readonly taskId: string }
  /** Several do: ask which, in this order (the account on show first). */
  | { readonly kind: 'choose-account'; readonly taskId: string; readonly accountIds: readonly string[] }
  /** Nothing is done; the person is told why. */
  | {
      readonly kind: 'refused';
      readonly problem: TaskLinkProblem | 'task-not-found';
      readonly reason: string;
    };

/**
 * Routes a link as the OS handed it. Only signed-in accounts are asked (a
 * signed-out account's kept mirror is not on offer until it signs in again).
 */
export function routeTaskLink(
  raw: unknown,
  accounts: readonly LinkAccount[],
  currentAccountId: string | null,
): TaskLinkRoute {
  const parsed = parseTaskLink(raw);
  if (!parsed.ok) return { kind: 'refused', problem: parsed.problem, reason: parsed.reason };
  const { taskId } = parsed.link;
  const holders = accounts
    .filter((account) => account.state !== 'signed-out')
    .filter((account) => account.showsTask(taskId))
    .map((account) => account.id)
    .sort((a, b) => Number(b === currentAccountId) - Number(a === currentAccountId));
  const [only] = holders;
  if (only === undefined) {
    return {
      kind: 'refused',
      problem: 'task-not-found',
      reason: "this task is not in any of your accounts' synced data",
    };
  }
  if (holders.length === 1) return { kind: 'open-task', accountId: only, taskId };
  return { kind: 'choose-account', taskId, accountIds: holders };
}

// Which tasks' comments a hot poll refreshes. There is no list of all comments
// and walking 100 000 tasks' lists is out of the rate budget, so only the tasks
// a person is likely to open offline are watched (their own open tasks, their
// teams' current sprints, what they opened in the last 30 days: db/tasks/task-openings.ts),
// a few per poll, those refreshed longest ago first; each is one conditional
// GET, so an unchanged list costs a 304.
import type { PullContext } from './pull-context';

/** How long an opened task stays in the watched set. */
export const OPENED_TASK_WATCH_MS = 30 * 86_400_000;

/**
 * Comment lists refreshed per hot poll besides the open task's. At the hot
 * tier's tightest interval (30 s) that is 20 requests a minute, a few percent
 * of the background's part of the budget; as polls back off, fewer.
 */
export const DEFAULT_COMMENT_WATCH = 10;

/** When a task opened at `now` leaves the watched set, as ISO 8601: openings before it are forgotten. */
export function openingsSince(now: number): string {
  return new Date(now - OPENED_TASK_WATCH_MS).toISOString();
}

/** The open task first (its comments are on screen), then up to `perPoll` of the watched set, stalest first. */
export async function commentWatchTasks(
  ctx: Pick<PullContext, 'store' | 'me' | 'now'>,
  openTaskId: string | null,
  perPoll: number,
): Promise<string[]> {
  const now = ctx.now();
  const due = await ctx.store.commentWatchTaskIds({
    username: ctx.me.username,
    today: new Date(now).toISOString().slice(0, 10),
    openedSince: openingsSince(now),
    limit: perPoll + 1,
  });
  const others = due.filter((id) => id !== openTaskId).slice(0, perPoll);
  return openTaskId === null ? others : [openTaskId, ...others];
}

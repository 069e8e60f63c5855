// `mirror.openings`: which tasks the person opened and when, and from it the
// tasks whose comments are worth keeping ready offline (their own open tasks,
// their teams' current sprints, what they opened lately), oldest-refreshed first.
import type { Database } from 'better-sqlite3';
import type { MirrorTransactions } from './mirror-transactions';
import { TEMPORARY_ID_PREFIX } from './outbox';

export interface CommentWatchQuery {
  /** The signed-in person's username: their tasks are those assigned to or created by them. */
  username: string;
  /** The UTC day (YYYY-MM-DD) that decides which sprints are current. */
  today: string;
  /** Tasks opened at or after this instant (ISO 8601) are in the set. */
  openedSince: string;
  limit: number;
}

// One scan of the task rows: an OR of three reasons (an index per reason would
// not help, the person's own tasks and a sprint's are a few hundred of 100 000
// rows at most, and this runs once per hot poll). Current sprints as the hot
// tier reads them (sync/pull/puller.ts currentSprintTeams): the person is owner
// or member of the team, today within the dates, not completed, not inactive.
// A task whose comments were never asked for comes first, then the one asked
// for longest ago (comment_checks: a 304 writes no pass, so passes cannot tell).
const COMMENT_WATCH = `
  SELECT t.task_id AS task_id
    FROM tasks t
    LEFT JOIN comment_checks c ON c.task_id = t.task_id
   WHERE t.hidden = 0
     AND substr(t.task_id, 1, length(@temporary)) <> @temporary
     AND ((t.status IS NOT 'completed' AND (t.assignee = @me OR t.created_by = @me))
       OR t.sprint_id IN (
            SELECT s.sprint_id FROM sprints s
             WHERE s.team_id IN (
                     SELECT team_id FROM teams
                      WHERE json_extract(raw_json, '$.team_role') IN ('owner', 'member'))
               AND coalesce(s.start_date, '') <= @today
               AND @today <= coalesce(s.end_date, '9999-12-31')
               AND s.status IS NOT 'completed'
               AND json_extract(s.raw_json, '$.is_active') IS NOT 0)
       OR t.task_id IN (SELECT task_id FROM task_openings WHERE opened_at >= @since))
   ORDER BY c.checked_at IS NOT NULL, c.checked_at, t.task_id
   LIMIT @limit`;

export class TaskOpenings {
  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
  ) {}

  /**
   * The person opened a task at `at` (ISO 8601; default the mirror's clock).
   * Openings before `forgetBefore` are dropped at the same time: past the
   * window they no longer keep anything fresh.
   */
  record(taskId: string, options: { at?: string; forgetBefore?: string } = {}): void {
    const at = options.at ?? this.tx.now();
    this.tx.write(() => {
      this.db
        .prepare(
          `INSERT INTO task_openings (task_id, opened_at) VALUES (?, ?)
           ON CONFLICT (task_id) DO UPDATE SET opened_at = max(opened_at, excluded.opened_at)`,
        )
        .run(taskId, at);
      if (options.forgetBefore !== undefined)
        this.db.prepare('DELETE FROM task_openings WHERE opened_at < ?').run(options.forgetBefore);
    });
  }

  /** Tasks opened at or after `since` (ISO 8601), most recent first. */
  openedSince(since: string): string[] {
    return this.tx.read(() =>
      (
        this.db
          .prepare('SELECT task_id FROM task_openings WHERE opened_at >= ? ORDER BY opened_at DESC, task_id')
          .all(since) as { task_id: string }[]
      ).map((r) => r.task_id),
    );
  }

  /** The comments of these tasks were just asked for (answered, 200 or 304, or gone): they go to the back of the watch. */
  commentsChecked(taskIds: readonly string[], at: string): void {
    if (taskIds.length === 0) return;
    this.tx.write(() => {
      const upsert = this.db.prepare(
        `INSERT INTO comment_checks (task_id, checked_at) VALUES (?, ?)
         ON CONFLICT (task_id) DO UPDATE SET checked_at = excluded.checked_at`,
      );
      for (const taskId of taskIds) upsert.run(taskId, at);
    }, 'server');
  }

  /** Up to `limit` tasks of the likely-opened set, those whose comments were refreshed longest ago first. */
  commentWatch(query: CommentWatchQuery): string[] {
    return this.tx.read(() =>
      (
        this.db.prepare(COMMENT_WATCH).all({
          temporary: TEMPORARY_ID_PREFIX,
          me: query.username,
          today: query.today,
          since: query.openedSince,
          limit: query.limit,
        }) as { task_id: string }[]
      ).map((r) => r.task_id),
    );
  }
}

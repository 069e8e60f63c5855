// `mirror.openings`: which tasks the person opened and when, and from it the
// tasks whose comments are worth keeping ready offline (their own open tasks,
// their teams' current sprints, what they opened lately), oldest-refreshed first.
import type { Database } from 'better-sqlite3';
import type { MirrorTransactions } from '../mirror-transactions';
import { TEMPORARY_ID_PREFIX } from '../outbox/outbox-types';

export interface CommentWatchQuery {
  /** The signed-in person's username: their tasks are those assigned to or created by them. */
  username: string;
  /** The UTC day (YYYY-MM-DD) that decides which sprints are current. */
  today: string;
  /** Tasks opened at or after this instant (ISO 8601) are in the set. */
  openedSince: string;
  limit: number;
}

// Current sprints as the hot tier reads them (sync/pull/puller.ts
// currentSprintTeams): the person is owner or member of the team, today within
// the dates, not completed, not inactive.
const CURRENT_SPRINTS = `
  SELECT s.sprint_id FROM sprints s
   WHERE s.team_id IN (
           SELECT team_id FROM teams
            WHERE json_extract(raw_json, '$.team_role') IN ('owner', 'member'))
     AND coalesce(s.start_date, '') <= @today
     AND @today <= coalesce(s.end_date, '9999-12-31')
     AND s.status IS NOT 'completed'
     AND json_extract(s.raw_json, '$.is_active') IS NOT 0`;

// A task whose comments were never asked for comes first, then the one asked
// for longest ago (comment_checks: a 304 writes no pass, so passes cannot tell).
const STALEST_FIRST = `
  LEFT JOIN comment_checks c ON c.task_id = w.task_id
  WHERE substr(w.task_id, 1, length(@temporary)) <> @temporary
  ORDER BY c.checked_at IS NOT NULL, c.checked_at, w.task_id
  LIMIT @limit`;

// Each reason is a walk of its own index: the person's through migration
// 0016's (which carry what they test), a current sprint's through 0014's
// (reading each row for its id); the opened tasks come checked from
// `visibleOpened`. One scan of every row with an OR of the reasons took ~110 ms
// of the pull worker each hot poll at 100 000 tasks (figures in 0016).
export const COMMENT_WATCH = `
  WITH watched(task_id) AS (
    SELECT task_id FROM tasks WHERE assignee = @me AND hidden = 0 AND status IS NOT 'completed'
    UNION
    SELECT task_id FROM tasks WHERE created_by = @me AND hidden = 0 AND status IS NOT 'completed'
    UNION
    SELECT task_id FROM tasks
     WHERE hidden = 0 AND sprint_id IS NOT NULL AND sprint_id IN (${CURRENT_SPRINTS})
    UNION
    SELECT value FROM json_each(@opened))
  SELECT w.task_id AS task_id FROM watched w ${STALEST_FIRST}`;

// While a first load still builds its indexes (db/tasks/deferred-indexes.ts) each
// reason above would be a scan of its own: one scan with an OR of them instead.
const COMMENT_WATCH_UNINDEXED = `
  WITH watched(task_id) AS (
    SELECT task_id FROM tasks
     WHERE hidden = 0
       AND ((status IS NOT 'completed' AND (assignee = @me OR created_by = @me))
         OR sprint_id IN (${CURRENT_SPRINTS})
         OR task_id IN (SELECT value FROM json_each(@opened))))
  SELECT w.task_id AS task_id FROM watched w ${STALEST_FIRST}`;

/** The indexes COMMENT_WATCH walks. */
export const COMMENT_WATCH_INDEXES: readonly string[] = [
  'tasks_by_assignee_open',
  'tasks_by_creator_open',
  'tasks_by_sprint',
];

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
    return this.tx.read(() => {
      const indexed =
        (
          this.db
            .prepare(
              `SELECT count(*) AS n FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks'
                  AND name IN (${COMMENT_WATCH_INDEXES.map(() => '?').join(', ')})`,
            )
            .get(...COMMENT_WATCH_INDEXES) as { n: number }
        ).n === COMMENT_WATCH_INDEXES.length;
      return (
        this.db.prepare(indexed ? COMMENT_WATCH : COMMENT_WATCH_UNINDEXED).all({
          temporary: TEMPORARY_ID_PREFIX,
          me: query.username,
          today: query.today,
          opened: JSON.stringify(this.visibleOpened(query.openedSince)),
          limit: query.limit,
        }) as { task_id: string }[]
      ).map((r) => r.task_id);
    });
  }

  /**
   * The tasks opened at or after `since` that the mirror shows (not deleted
   * here), each found by the id index (search_id is the id's JavaScript lower
   * case, task-columns.ts): a few hundred at most in 30 days.
   */
  private visibleOpened(since: string): string[] {
    const shown = this.db.prepare('SELECT 1 FROM tasks WHERE search_id = ? AND task_id = ? AND hidden = 0');
    return (
      this.db.prepare('SELECT task_id FROM task_openings WHERE opened_at >= ?').all(since) as {
        task_id: string;
      }[]
    )
      .map((r) => r.task_id)
      .filter((id) => shown.get(id.toLowerCase(), id) !== undefined);
  }
}

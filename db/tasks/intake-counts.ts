// How many tasks wait in each team's intake (gaps.md "Team intake": its tasks
// whose review is pending), for the sidebar's counts beside each Triage: the
// shown tasks the triage screen's query (team, review=pending) lists, counted
// for every team in one walk of migration 0025's index. Offline edits count:
// a task triaged here leaves its team's count at once.
import type { Database } from 'better-sqlite3';

export function intakeCounts(db: Database): Record<string, number> {
  // `review = 'pending'` written as a literal: SQLite uses a partial index only for a term it can match to its WHERE.
  const rows = db
    .prepare(
      `SELECT team_id, count(*) AS n FROM tasks
        WHERE hidden = 0 AND review = 'pending' AND team_id IS NOT NULL
        GROUP BY team_id`,
    )
    .all() as { team_id: string; n: number }[];
  return Object.fromEntries(rows.map((row) => [row.team_id, row.n]));
}

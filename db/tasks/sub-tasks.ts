// A task's sub-tasks as its editor lists them: the shown tasks whose
// parent_task_id names it, in board order (position, then title), found
// through migration 0020's index. Offline edits count: a sub-task added or
// completed here shows at once.
import type { Database } from 'better-sqlite3';

export interface SubTask {
  task_id: string;
  title: string;
  status: string;
  /** An edit of it waits to be sent (a sub-task added offline, say). */
  pending: boolean;
}

export function subTasksOf(db: Database, parentId: string): SubTask[] {
  const rows = db
    .prepare(
      `SELECT task_id, title, status, pending FROM tasks
        WHERE hidden = 0 AND parent_task_id = ?
        ORDER BY position IS NULL, position, k_title, task_id`,
    )
    .all(parentId) as { task_id: string; title: string; status: string; pending: number }[];
  return rows.map((row) => ({ ...row, pending: row.pending > 0 }));
}

// The prepared statements a task query reuses, and the rows of list items they
// read: one JSON array text a row (task-query.ts's itemOf makes the item).
import type { Database, Statement } from 'better-sqlite3';
import type { TaskSortKey } from '../../protocol/task-list-query';
import { type KeyValue, SORT_COLUMNS } from './cursor';

/**
 * A list item's columns then its row id, as one JSON array text a row:
 * better-sqlite3 makes a JS value of every column (~0.15 µs each, nulls
 * too), and one text through JSON.parse costs about a quarter less a page
 * (measured; SQLite writes reals with digits enough to read back the same).
 */
export const ITEM_JSON =
  'json_array(t.task_id, t.title, t.status, t.priority, t.assignee, t.project_id, t.team_id, t.section_id, ' +
  't.sprint_id, t.goal_id, t.milestone_id, t.parent_task_id, json(t.tags), t.due_date, t.start_date, ' +
  't.created_at, t.updated_at, t.completed_at, t.task_type, t.created_via, t.review, t.position, ' +
  't.pending > 0, t.server_gone > 0, t.rid)';

/** A row of ITEM_JSON, parsed; itemOf (task-query.ts) reads its columns by position. */
export type ItemRow = unknown[];
export const RID_AT = 24;

/** Statements prepared once per SQL text, shared by the planner, the page reader and the count. */
export class TaskReads {
  private readonly statements = new Map<string, Statement>();
  private readonly rowStatements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  statement(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** About how many task rows there are: the largest row id (deleted rows only make it high). */
  rowEstimate(): number {
    return (this.statement('SELECT max(rid) AS n FROM tasks').get() as { n: number | null }).n ?? 0;
  }

  /** The item rows a statement selecting ITEM_JSON returns. */
  rows(sql: string, params: readonly unknown[]): ItemRow[] {
    let statement = this.rowStatements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql).pluck(true);
      this.rowStatements.set(sql, statement);
    }
    return (statement.all(...params) as string[]).map((text) => JSON.parse(text) as ItemRow);
  }

  /** The item rows of `rids`, in that order. */
  rowsById(rids: readonly number[]): ItemRow[] {
    if (rids.length === 0) return [];
    const found = this.rows(`SELECT ${ITEM_JSON} FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value`, [
      JSON.stringify(rids),
    ]);
    const byRid = new Map(found.map((row) => [row[RID_AT] as number, row]));
    return rids.map((rid) => byRid.get(rid) as ItemRow);
  }

  /** Of `rids`, those whose rows pass the filter's conditions (in no particular order). */
  passing(rids: readonly number[], where: { sql: readonly string[]; params: readonly unknown[] }): number[] {
    return this.statement(
      `SELECT t.rid FROM json_each(?) c CROSS JOIN tasks t ON t.rid = c.value WHERE ${where.sql.join(' AND ')}`,
    )
      .pluck()
      .all(JSON.stringify(rids), ...where.params) as number[];
  }

  /** The sort key values of one row (a page's last: its cursor). */
  sortValues(sortBy: TaskSortKey, rid: number): KeyValue[] {
    const columns = SORT_COLUMNS[sortBy].map((c) => `t.${c}`).join(', ');
    return this.statement(`SELECT ${columns} FROM tasks t WHERE t.rid = ?`).raw(true).get(rid) as KeyValue[];
  }
}

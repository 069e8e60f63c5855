// A status or priority sort, walked value by value: the tasks of each value in
// task id order on its rank index, the values in the sort's order (the known
// ones by rank, the others by name, a null priority last).
import {
  PRIORITY_RANK,
  STATUS_RANK,
  type TaskListFilter,
  type TaskSortKey,
} from '../../protocol/task-list-query';
import { NULL_KEY } from '../tasks/task-columns';
import { compareCodePoints, compareKeyValues, type Cursor, type KeyValue } from './cursor';
import type { Where } from './filter-sql';
import { ITEM_JSON, type ItemRow, type TaskReads } from './item-rows';

/** A group of a grouped walk: one value of the sort key, walked in task id order on the rank index. */
interface SortGroup {
  /** The rank index's first column value (rank, lower-case name, or the null key). */
  rank: KeyValue;
  /** Its second column (the raw value, '' for null). */
  raw: string;
  /** The group's place in the sort order: its `k_*` value. */
  key: KeyValue;
}

/** The sorts walked in groups, and the rank index each walks. */
export const GROUPED: Partial<
  Record<TaskSortKey, { rankColumn: string; rawColumn: string; known: Record<string, number>; index: string }>
> = {
  status: {
    rankColumn: 'k_status_rank',
    rawColumn: 'status',
    known: STATUS_RANK,
    index: 'tasks_by_status_rank',
  },
  priority: {
    rankColumn: 'k_priority_rank',
    rawColumn: 't_priority',
    known: PRIORITY_RANK,
    index: 'tasks_by_priority_rank',
  },
};

export class GroupedWalk {
  constructor(private readonly reads: TaskReads) {}

  /** The values present of a grouped sort key, in ascending sort order. */
  private groups(sortBy: TaskSortKey, f: TaskListFilter): SortGroup[] {
    const spec = GROUPED[sortBy];
    if (!spec) return [];
    const allowed = sortBy === 'status' ? f.status : sortBy === 'priority' ? f.priority : undefined;
    const groups: SortGroup[] = [];
    for (const [name, rank] of Object.entries(spec.known)) {
      if (allowed && !allowed.includes(name)) continue;
      groups.push({ rank, raw: name, key: name.toLowerCase() });
    }
    if (!allowed) {
      // Values the contract does not name: their key is their lower-case text (text sorts after ranks).
      const unknown = this.reads
        .statement(
          `SELECT DISTINCT t.${spec.rankColumn} AS rank, t.${spec.rawColumn} AS raw FROM tasks t
          WHERE t.${spec.rankColumn} > 3 AND t.${spec.rankColumn} < x''`,
        )
        .all() as { rank: string; raw: string }[];
      for (const { rank, raw } of unknown) groups.push({ rank, raw, key: rank });
      if (sortBy === 'priority') groups.push({ rank: NULL_KEY, raw: '', key: NULL_KEY });
    }
    return groups.sort((a, b) => compareKeyValues(a.key, b.key) || compareCodePoints(a.raw, b.raw));
  }

  /** A status or priority sort: each value's tasks in id order on the rank index, value after value. */
  walk(
    sortBy: TaskSortKey,
    desc: boolean,
    where: Where,
    after: Cursor | null,
    want: number,
    f: TaskListFilter,
  ): ItemRow[] {
    const spec = GROUPED[sortBy] as NonNullable<(typeof GROUPED)[TaskSortKey]>;
    let groups = this.groups(sortBy, f);
    if (desc) groups = groups.reverse();
    const rows: ItemRow[] = [];
    const base = `SELECT ${ITEM_JSON} FROM tasks t WHERE ${where.sql.join(' AND ')} AND t.${spec.rankColumn} = ? AND t.${spec.rawColumn} = ?`;
    const order = ` ORDER BY t.task_id${desc ? ' DESC' : ''} LIMIT ?`;
    for (const group of groups) {
      let idBound: string | null = null;
      if (after) {
        const [key, raw, id] = after.values as [KeyValue, string, string];
        const position = compareKeyValues(group.key, key) || compareCodePoints(group.raw, raw);
        if (desc ? position > 0 : position < 0) continue;
        if (position === 0) idBound = id;
      }
      const sql = idBound === null ? base + order : `${base} AND t.task_id ${desc ? '<' : '>'} ?${order}`;
      const params = [...where.params, group.rank, group.raw, ...(idBound === null ? [] : [idBound])];
      const found = this.reads.rows(sql, [...params, want - rows.length]);
      rows.push(...found);
      if (rows.length >= want) break;
    }
    return rows;
  }
}

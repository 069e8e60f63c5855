// Task rows in groups by a field, as a saved view groups them (gaps.md: status,
// priority, assignee, project, section or sprint): a saved view's board, one
// column a group, and a sprint's tasks by status. Statuses and priorities come
// in their known order, every known value a group (a board shows an empty
// "Blocked"); the other fields' values by name. Tasks without a value stand in
// a last group, and each group keeps the rows' order.
import type { TaskPatchInput, TaskRow } from '../../../ipc/screen-schemas';
import type { VIEW_GROUPINGS } from '../../../protocol/view';
import { PRIORITIES, STATUSES, valueWord } from '../vocabulary/task-words';

type Grouping = (typeof VIEW_GROUPINGS)[number];

export interface RowGroup {
  /** The grouped field's value; '' for the tasks without one. */
  key: string;
  name: string;
  rows: TaskRow[];
}

/** The names of what tasks are filed under, by id (the workspace's). */
export interface GroupNames {
  projectNames: ReadonlyMap<string, string>;
  sectionNames: ReadonlyMap<string, string>;
  sprintNames: ReadonlyMap<string, string>;
}

/** For a grouping whose groups are named by their values alone (status, priority, assignee). */
const NO_NAMES: GroupNames = { projectNames: new Map(), sectionNames: new Map(), sprintNames: new Map() };

const FIELDS: Readonly<Record<Grouping, keyof TaskRow>> = {
  status: 'status',
  priority: 'priority',
  assignee: 'assignee',
  project: 'project_id',
  section: 'section_id',
  sprint: 'sprint_id',
};

const WITHOUT: Readonly<Record<Grouping, string>> = {
  status: 'No status',
  priority: 'No priority',
  assignee: 'Unassigned',
  project: 'No project',
  section: 'No section',
  sprint: 'No sprint',
};

/** The columns always shown, in this order: statuses as work flows, priorities most urgent first. */
const KNOWN: Partial<Readonly<Record<Grouping, readonly string[]>>> = {
  status: STATUSES,
  priority: [...PRIORITIES].reverse(),
};

/** A grouping this version knows (the others show one group of all the rows). */
export function isGrouping(value: string | null): value is Grouping {
  return value !== null && Object.hasOwn(FIELDS, value);
}

function nameOf(grouping: Grouping, key: string, names: GroupNames): string {
  switch (grouping) {
    case 'status':
    case 'priority':
      return valueWord(key);
    case 'assignee':
      return key;
    case 'project':
      return names.projectNames.get(key) ?? key;
    case 'section':
      return names.sectionNames.get(key) ?? key;
    case 'sprint':
      return names.sprintNames.get(key) ?? key;
  }
}

/**
 * `rows` (in the order they are shown) grouped by `groupBy`. No grouping, or
 * one this version does not know, is one group of all the rows.
 */
export function groupRows(
  rows: readonly TaskRow[],
  groupBy: string | null,
  names: GroupNames = NO_NAMES,
): RowGroup[] {
  if (!isGrouping(groupBy)) return [{ key: '', name: 'All tasks', rows: [...rows] }];
  const field = FIELDS[groupBy];
  const byKey = new Map<string, TaskRow[]>((KNOWN[groupBy] ?? []).map((key) => [key, []]));
  for (const row of rows) {
    const value = row[field];
    const key = typeof value === 'string' ? value : '';
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, [row]);
    else group.push(row);
  }
  const known = new Set(KNOWN[groupBy]);
  const groups = [...byKey].map(([key, grouped]) => ({
    key,
    name: key === '' ? WITHOUT[groupBy] : nameOf(groupBy, key, names),
    rows: grouped,
  }));
  const rank = (group: RowGroup) => (known.has(group.key) ? 0 : group.key === '' ? 2 : 1);
  // Known values keep their order (the sort is stable); the others by name, the tasks without a value last.
  return groups.sort((a, b) => rank(a) - rank(b) || (rank(a) === 1 ? a.name.localeCompare(b.name) : 0));
}

/**
 * The edit that files a task under a group of `groupBy` (a card moved to a
 * column of a saved view's board): its field set to the group's value, or
 * cleared for the group without one. Null where no edit can: no grouping, or
 * the group without a status (every task has one).
 */
export function groupPatch(groupBy: string | null, key: string): TaskPatchInput | null {
  if (!isGrouping(groupBy)) return null;
  if (groupBy === 'status') return key === '' ? null : { status: key };
  return { [FIELDS[groupBy]]: key === '' ? null : key };
}

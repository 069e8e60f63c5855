// How deep a row from the server may nest before the mirror refuses it: its
// JSON is written with JSON.stringify and crosses from the pull worker by
// structured clone, both recursive, which throw RangeError a few thousand
// levels down and would take the whole page (and its list, at every pull)
// with them. What the service sends nests a handful of levels; a comment's
// replies are flattened past 24 (protocol/task-comment.ts).

/** Arrays and objects within one another that a stored row may hold. */
export const MAX_ROW_NESTING = 100;

/**
 * True when `value` holds arrays or objects nested more than `limit` deep;
 * walked without recursion. Run on every row a page writes: it allocates
 * only for the containers it meets (a task has a tags list at most).
 */
export function nestedDeeperThan(value: unknown, limit: number = MAX_ROW_NESTING): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const containers: object[] = [value];
  const depths: number[] = [1];
  for (let container = containers.pop(); container !== undefined; container = containers.pop()) {
    const depth = depths.pop() as number;
    // An array's indexes too: for…in reads own keys of parsed JSON (its prototypes have no enumerable ones).
    for (const key in container) {
      const child = (container as Record<string, unknown>)[key];
      if (typeof child !== 'object' || child === null) continue;
      if (depth >= limit) return true;
      containers.push(child);
      depths.push(depth + 1);
    }
  }
  return false;
}

// How deep a row from the server may nest before the mirror refuses it: its
// JSON is written with JSON.stringify and crosses from the pull worker by
// structured clone, both recursive, which throw RangeError a few thousand
// levels down and would take the whole page (and its list, at every pull)
// with them. What the service sends nests a handful of levels; a comment's
// replies are flattened past 24 (protocol/task-comment.ts). And how long a
// string in it may be: the contract bounds some fields (checked by their wire
// schemas) but not a task's title or description, and a 10 MB title would be
// stored, copied and drawn as sent.

/** Arrays and objects within one another that a stored row may hold. */
export const MAX_ROW_NESTING = 100;

/**
 * The longest string (value or key, in UTF-16 units) a stored row may hold: ten
 * times the longest field the contract bounds (comment content, 100 000
 * characters), so no text a person wrote through the service is refused, while
 * a page of them ends in bounded time and memory.
 */
export const MAX_ROW_TEXT = 1_000_000;

const TOO_LONG = `holds a text longer than ${MAX_ROW_TEXT} characters`;
const TOO_DEEP = `nests more than ${MAX_ROW_NESTING} levels deep`;

/**
 * Why a row from the server is past what the mirror stores (too deep, or a
 * text too long), or null when it is within both; one walk, without
 * recursion, that allocates only for the containers it meets (it runs on
 * every row a page writes). `field` is the row's own field that holds it.
 */
export function rowBeyondBounds(value: unknown): { field: string; reason: string } | null {
  if (typeof value !== 'object' || value === null) return null;
  const containers: object[] = [value];
  const depths: number[] = [1];
  const fields: string[] = ['(row)'];
  for (let container = containers.pop(); container !== undefined; container = containers.pop()) {
    const depth = depths.pop() as number;
    const field = fields.pop() as string;
    for (const key in container) {
      const at = depth === 1 ? key : field;
      if (key.length > MAX_ROW_TEXT) return { field: depth === 1 ? '(row)' : field, reason: TOO_LONG };
      const child = (container as Record<string, unknown>)[key];
      if (typeof child === 'string' && child.length > MAX_ROW_TEXT) return { field: at, reason: TOO_LONG };
      if (typeof child !== 'object' || child === null) continue;
      if (depth >= MAX_ROW_NESTING) return { field: '(row)', reason: TOO_DEEP };
      containers.push(child);
      depths.push(depth + 1);
      fields.push(at);
    }
  }
  return null;
}

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

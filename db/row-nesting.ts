// How deep a row from the server may nest before the mirror refuses it: its
// JSON is written with JSON.stringify and crosses from the pull worker by
// structured clone, both recursive, which throw RangeError a few thousand
// levels down and would take the whole page (and its list, at every pull)
// with them. What the service sends nests a handful of levels; a comment's
// replies are flattened past 24 (protocol/task-comment.ts).

/** Arrays and objects within one another that a stored row may hold. */
export const MAX_ROW_NESTING = 100;

/** True when `value` holds arrays or objects nested more than `limit` deep; walked without recursion. */
export function nestedDeeperThan(value: unknown, limit: number = MAX_ROW_NESTING): boolean {
  const stack: { value: object; depth: number }[] = [];
  if (typeof value === 'object' && value !== null) stack.push({ value, depth: 1 });
  while (stack.length > 0) {
    const { value: container, depth } = stack.pop() as { value: object; depth: number };
    if (depth > limit) return true;
    const children: unknown[] = Array.isArray(container) ? container : Object.values(container);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: depth + 1 });
    }
  }
  return false;
}

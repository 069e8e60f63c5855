// Per-field three-way merge of a local edit (mine) against the server's newer
// version (theirs), both measured from the version the edit was made on (base).
// Pure: the pusher decides what to send, what to land and what to ask about.

/** A JSON value as it appears in a resource or a merge-patch. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** One field both sides changed to different values: waits for a person. */
export interface FieldConflict {
  field: string;
  base: JsonValue;
  mine: JsonValue;
  theirs: JsonValue;
}

export interface MergeInput {
  /** The server's values when the edit was made (at least the fields I changed). */
  base: Readonly<Record<string, unknown>>;
  /** The fields I changed, with my values (a merge-patch). */
  mine: Readonly<Record<string, unknown>>;
  /** The server's current values (at least the fields I changed). */
  theirs: Readonly<Record<string, unknown>>;
  /**
   * Fields compared as sets (order and repeats ignored). Default: `tags`.
   * See `TASK_SET_FIELDS` for why they are not merged element by element.
   */
  setFields?: ReadonlySet<string>;
}

export interface MergeResult {
  /** Fields only I changed: re-sent, on top of the new version. */
  rebased: Record<string, JsonValue>;
  /** Fields only they changed: taken into the mirror. Only fields I touched are listed here. */
  taken: Record<string, JsonValue>;
  /** Fields both sides changed to the same value: nothing left to send. */
  settled: Record<string, JsonValue>;
  /** Fields both sides changed to different values. */
  conflicts: FieldConflict[];
}

/**
 * Tags are compared as sets, because the service treats them as one
 * (`filter[tags]` matches any), so a reordering is no change. They are NOT merged
 * element by element: a merge-patch replaces an array whole (RFC 7396), so a
 * computed union/difference would send a list neither person chose or saw.
 * Two different tag lists are a conflict, shown with both lists, like any field.
 */
export const TASK_SET_FIELDS: ReadonlySet<string> = new Set(['tags']);

/**
 * Merges per field over the fields of my patch. A field I did not touch is not
 * part of the decision: the server's value simply stands (the caller lands the
 * server version as the new base). `undefined` (absent) and `null` are the same
 * value, as in a merge-patch, where null removes a field.
 */
export function threeWayMerge(input: MergeInput): MergeResult {
  const setFields = input.setFields ?? TASK_SET_FIELDS;
  const result: MergeResult = { rebased: {}, taken: {}, settled: {}, conflicts: [] };
  for (const field of Object.keys(input.mine)) {
    const asSet = setFields.has(field);
    const base = toJson(input.base[field]);
    const mine = toJson(input.mine[field]);
    const theirs = toJson(input.theirs[field]);
    const mineChanged = !sameValue(base, mine, asSet);
    const theirsChanged = !sameValue(base, theirs, asSet);
    if (!theirsChanged) {
      // Mine stands (when it is no change at all, re-sending it is harmless and keeps the person's intent).
      result.rebased[field] = mine;
    } else if (!mineChanged) {
      result.taken[field] = theirs;
    } else if (sameValue(mine, theirs, asSet)) {
      result.settled[field] = theirs;
    } else {
      result.conflicts.push({ field, base, mine, theirs });
    }
  }
  return result;
}

/** True when the merge needs nobody: no conflicting field. */
export function isClean(result: MergeResult): boolean {
  return result.conflicts.length === 0;
}

/** Deep equality of JSON values; arrays as sets when `asSet` (order and repeats ignored). */
export function sameValue(a: JsonValue, b: JsonValue, asSet = false): boolean {
  if (asSet && Array.isArray(a) && Array.isArray(b)) {
    const left = new Set(a.map((item) => canonicalJson(item)));
    const right = new Set(b.map((item) => canonicalJson(item)));
    if (left.size !== right.size) return false;
    for (const item of left) if (!right.has(item)) return false;
    return true;
  }
  return canonicalJson(a) === canonicalJson(b);
}

/** JSON text with object keys sorted, so that key order never makes two values differ. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key] ?? null)}`).join(',')}}`;
}

/** Absent is null (merge-patch semantics); anything else must already be JSON. */
function toJson(value: unknown): JsonValue {
  return value === undefined ? null : (value as JsonValue);
}

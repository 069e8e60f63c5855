// The contract's list rules: `limit` (>= 1, silently capped at 1000, defaults
// per operation), opaque cursors, `offset` ignored when a cursor is given.
// A cursor names the last item a page returned (its sort value and id), so a
// walk neither skips nor repeats items when others are inserted or deleted
// meanwhile; it is tied to the query that made it and to a cursor epoch the
// fault injection can move (then every older cursor is refused).
import { createHash } from 'node:crypto';
import { ProblemReply } from './problem';

export const LIMIT_CAP = 1000;

export function invalidParameter(
  name: string,
  msg: string,
  allowed: readonly string[] | null = null,
): ProblemReply {
  const item = { loc: ['query', name], msg, ...(allowed ? { allowed } : {}) };
  return new ProblemReply(400, 'invalid-parameter', 'Invalid parameter', msg, [item]);
}

/** The query string as ordered pairs, exactly as sent (repeated keys kept). */
export function queryPairs(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at === -1 ? '' : url.slice(at + 1));
}

export function parseLimit(raw: string | null, defaultLimit: number): number {
  if (raw === null) return defaultLimit;
  if (!/^-?\d+$/.test(raw.trim())) throw invalidParameter('limit', `limit must be an integer, not '${raw}'`);
  const limit = Number(raw);
  if (limit < 1) throw invalidParameter('limit', 'limit must be at least 1');
  return Math.min(limit, LIMIT_CAP);
}

export function parseOffset(raw: string | null): number {
  if (raw === null) return 0;
  if (!/^\d+$/.test(raw.trim()))
    throw invalidParameter('offset', `offset must be a non-negative integer, not '${raw}'`);
  return Number(raw);
}

/** Validates `sort_by` / `sort_order` against an operation's allowed values. */
export function parseSort<K extends string>(
  params: URLSearchParams,
  allowed: readonly K[],
  defaultKey: K,
): { sortBy: K; sortOrder: 'asc' | 'desc'; explicit: boolean } {
  const by = params.get('sort_by');
  const order = params.get('sort_order');
  if (by !== null && !(allowed as readonly string[]).includes(by)) {
    throw invalidParameter('sort_by', `sort_by cannot be '${by}'`, allowed);
  }
  if (order !== null && order !== 'asc' && order !== 'desc') {
    throw invalidParameter('sort_order', `sort_order cannot be '${order}'`, ['asc', 'desc']);
  }
  return {
    sortBy: (by ?? defaultKey) as K,
    sortOrder: order ?? 'asc',
    explicit: by !== null || order !== null,
  };
}

/** Where a page starts: after the item with this sort value and id, or at the beginning. */
export type CursorPosition = { value: string | number | null; id: string } | null;

export class CursorCodec {
  /** Moving it refuses every cursor issued before (fault: cursors that stop being accepted). */
  epoch = 0;

  encode(queryKey: string, after: CursorPosition): string {
    const payload = JSON.stringify({
      e: this.epoch,
      q: hashQuery(queryKey),
      a: after ? [after.value, after.id] : null,
    });
    return Buffer.from(payload).toString('base64url');
  }

  decode(cursor: string, queryKey: string): CursorPosition {
    const refused = invalidParameter(
      'cursor',
      'cursor is not valid for this query (it may have expired): start over',
    );
    let payload: unknown;
    try {
      payload = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    } catch {
      throw refused;
    }
    if (typeof payload !== 'object' || payload === null) throw refused;
    const { e, q, a } = payload as { e?: unknown; q?: unknown; a?: unknown };
    if (e !== this.epoch || q !== hashQuery(queryKey)) throw refused;
    if (a === null) return null;
    if (!Array.isArray(a) || a.length !== 2) throw refused;
    const [value, id] = a as unknown[];
    if (
      typeof id !== 'string' ||
      !(value === null || typeof value === 'string' || typeof value === 'number')
    ) {
      throw refused;
    }
    return { value, id };
  }
}

function hashQuery(queryKey: string): string {
  return createHash('sha1').update(queryKey).digest('base64url').slice(0, 12);
}

/** Index of the first item ordered after `after` in a list sorted by `compareToPosition`'s order. */
export function firstAfter<T>(
  sorted: readonly T[],
  after: CursorPosition,
  compareToPosition: (item: T, position: NonNullable<CursorPosition>) => number,
): number {
  if (after === null) return 0;
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareToPosition(sorted[mid] as T, after) <= 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Compares by Unicode code point (not UTF-16 code unit), as SQLite compares UTF-8 text. */
export function compareCodePoints(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x !== y) {
      if (x >= 0xd800 && y >= 0xd800) {
        x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
        y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
      }
      return x - y;
    }
  }
  return a.length - b.length;
}

/** Strings compare by their lower case, then as sent; nulls are the largest value. */
export function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return compareCodePoints(a.toLowerCase(), b.toLowerCase()) || compareCodePoints(a, b);
}

/** Where an item goes in a list ordered by `position` when none is asked for: 1024 after the last of its siblings. */
export function positionAfter(siblings: Iterable<{ position: number }>): number {
  let max = 0;
  for (const sibling of siblings) max = Math.max(max, sibling.position);
  return max + 1024;
}

export function compareNumber(a: number | null, b: number | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a - b;
}

export interface SmallPage<T> {
  items: T[];
  next: CursorPosition | undefined;
}

/**
 * One page of an in-memory list sorted by `compare` (ascending; `desc` reverses
 * it, ties included). `positionOf` names an item for its cursor. Returns the
 * items and the position of the last one when more follow.
 */
export function pageOf<T>(
  sortedAsc: readonly T[],
  options: {
    order: 'asc' | 'desc';
    limit: number;
    after: CursorPosition;
    offset: number;
    positionOf: (item: T) => NonNullable<CursorPosition>;
    compareToPosition: (item: T, position: NonNullable<CursorPosition>) => number;
  },
): SmallPage<T> {
  const list = options.order === 'asc' ? sortedAsc : [...sortedAsc].reverse();
  const direction = options.order === 'asc' ? 1 : -1;
  const start =
    options.after === null
      ? options.offset
      : firstAfter(list, options.after, (item, p) => direction * options.compareToPosition(item, p));
  const items = list.slice(start, start + options.limit);
  const last = items[items.length - 1];
  const more = start + options.limit < list.length;
  return { items, next: more && last !== undefined ? options.positionOf(last) : undefined };
}

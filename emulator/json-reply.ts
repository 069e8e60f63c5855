// How the emulator answers: JSON bodies serialized once with their ETag,
// `If-None-Match` answered 304 without a body, `If-Match` checked before a
// write, deprecation headers on PUT, and every list page built the same way
// (`{data, next_cursor}` plus extras such as `total`, fault-injected short pages).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EmulatorContext } from './emulator-context';
import { etagOf, matchFails, noneMatchSatisfied } from './entity-tag';
import { compareCodePoints, type CursorPosition, pageOf, parseLimit, parseOffset, parseSort } from './paging';
import { ProblemReply } from './problem';

const JSON_TYPE = 'application/json; charset=utf-8';

export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? url : url.slice(0, at);
}

/** Sends a serialized body with its ETag; a matching If-None-Match on a read gives 304 and no body. */
export function sendBody(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  body: string | Buffer,
  etag: string = etagOf(body),
): FastifyReply {
  reply.header('etag', etag);
  if (
    status === 200 &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    noneMatchSatisfied(request.headers['if-none-match'], etag)
  ) {
    return reply.code(304).send();
  }
  return reply.code(status).type(JSON_TYPE).send(body);
}

export function sendJson(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  value: unknown,
): FastifyReply {
  return sendBody(request, reply, status, JSON.stringify(value));
}

/** 412 `precondition-failed` when `If-Match` does not name the current ETag (nothing is written). */
export function checkIfMatch(request: FastifyRequest, currentEtag: string): void {
  const header = request.headers['if-match'];
  if (matchFails(header, currentEtag)) {
    throw new ProblemReply(
      412,
      'precondition-failed',
      'Precondition failed',
      'If-Match does not match the current ETag: the resource changed since you read it.',
    );
  }
}

// Contract date of the deprecation; the sunset is announced six months on.
const DEPRECATED_AT = Date.parse('2026-09-25T00:00:00Z');
const SUNSET_AT = Date.parse('2027-03-31T00:00:00Z');

/** Deprecated PUT: `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and the PATCH successor. */
export function markDeprecated(reply: FastifyReply, successorPath: string): void {
  reply.header('deprecation', `@${Math.floor(DEPRECATED_AT / 1000)}`);
  reply.header('sunset', new Date(SUNSET_AT).toUTCString());
  reply.header('link', `<${successorPath}>; rel=successor-version`);
}

export interface ListSpec<T> {
  /** Ties cursors to this list and query: a cursor from another query is refused. */
  queryKey: string;
  sortedAsc: readonly T[];
  order: 'asc' | 'desc';
  defaultLimit: number;
  params: URLSearchParams;
  positionOf: (item: T) => NonNullable<CursorPosition>;
  compareToPosition: (item: T, position: NonNullable<CursorPosition>) => number;
  serialize: (item: T) => unknown;
  /** Fields after `data` and `next_cursor`, such as `total`. */
  extra?: Record<string, unknown>;
}

/** One page of a small in-memory list, answered with its ETag (304 when unchanged). */
export function sendList<T>(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: ListSpec<T>,
): FastifyReply {
  const limit = parseLimit(spec.params.get('limit'), spec.defaultLimit);
  const cursor = spec.params.get('cursor');
  const after = cursor === null ? null : ctx.cursors.decode(cursor, spec.queryKey);
  const offset = cursor === null ? parseOffset(spec.params.get('offset')) : 0;
  const short = ctx.faults.take('short-page', request.method, pathOf(request.url), request.url);
  const page = pageOf(spec.sortedAsc, {
    order: spec.order,
    limit: short ? Math.min(limit, short.pageSize ?? 1) : limit,
    after,
    offset,
    positionOf: spec.positionOf,
    compareToPosition: spec.compareToPosition,
  });
  let next: string | null = page.next === undefined ? null : ctx.cursors.encode(spec.queryKey, page.next);
  if (short) {
    // Short or empty, but a cursor all the same: it resumes right after what this page held.
    const last = page.items[page.items.length - 1];
    next = ctx.cursors.encode(spec.queryKey, last !== undefined ? spec.positionOf(last) : after);
  }
  const body = JSON.stringify({ data: page.items.map(spec.serialize), next_cursor: next, ...spec.extra });
  return sendBody(request, reply, 200, body);
}

export interface KeyedListSpec<T, V extends string | number | null> extends Omit<
  ListSpec<T>,
  'sortedAsc' | 'positionOf' | 'compareToPosition'
> {
  /** The list's items, in any order. */
  items: readonly T[];
  /** The value the list sorts by, compared by `compare`; ties go by `id` in code-point order. */
  sortedBy: { value: (item: T) => V; id: (item: T) => string; compare: (a: V, b: V) => number };
}

/**
 * `sendList` for the common list sorted by one value then by id: the items
 * sorted, and the cursor position (value, id) derived from the same two keys,
 * so that the order and the cursor can never disagree.
 */
export function sendKeyedList<T, V extends string | number | null>(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: KeyedListSpec<T, V>,
): FastifyReply {
  const { items, sortedBy, ...list } = spec;
  const { value: valueOf, id: idOf, compare: compareValues } = sortedBy;
  // A cursor holds the value its list's positionOf wrote, so it has the list's value type.
  const compareToPosition = (item: T, position: NonNullable<CursorPosition>) =>
    compareValues(valueOf(item), position.value as V) || compareCodePoints(idOf(item), position.id);
  return sendList(ctx, request, reply, {
    ...list,
    sortedAsc: [...items].sort((a, b) => compareToPosition(a, { value: valueOf(b), id: idOf(b) })),
    positionOf: (item) => ({ value: valueOf(item), id: idOf(item) }),
    compareToPosition,
  });
}

export interface CreationOrderListSpec<T> extends Pick<ListSpec<T>, 'defaultLimit' | 'params' | 'serialize'> {
  /** Ties cursors to this list and query; the sort order is added to it. */
  queryKey: string;
  /** The list's items, in any order. */
  items: readonly T[];
  id: (item: T) => string;
}

/**
 * `sendKeyedList` for a list kept in the order its items were made (comments,
 * history, attachments): by `created_at` then id, and `sort_by` may name
 * nothing else.
 */
export function sendCreationOrderList<T extends { created_at: string }>(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  spec: CreationOrderListSpec<T>,
): FastifyReply {
  const { queryKey, id, ...list } = spec;
  const order = parseSort(spec.params, ['created_at'] as const, 'created_at').sortOrder;
  return sendKeyedList(ctx, request, reply, {
    ...list,
    queryKey: `${queryKey}\u0000${order}`,
    order,
    sortedBy: { value: (item) => item.created_at, id, compare: compareCodePoints },
  });
}

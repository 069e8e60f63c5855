// When pages are applied in the worker, their items are validated there too:
// the main thread checks only the page envelope (`data` is an array,
// `next_cursor` a string or null) and hands the items over, and the worker
// checks them against the operation's item schema before writing anything (a
// task list's items, by the mirror's row check alone: see ROW_CHECKED).
// An item that fails is left out and named (the rest of its page is applied),
// where the API client would fail the whole page. A 1000-task page then costs
// the main thread one JSON.parse and one copy, not a schema walk of every task.
import { z } from 'zod';
import type { ListOperation } from '../api/operations';
import type { WritableKind } from '../../protocol/writable-kind';
import { COLLECTION_KINDS } from '../../protocol/writable-kinds';
import {
  organizationOperations,
  organizationMemberOperations,
  projectOperations,
  sectionOperations,
  taskCommentOperations,
  taskHistoryOperations,
  taskOperations,
  teamOperations,
  goalOperations,
  kindOperationsOf,
} from '../api/operations';
import { formatIssuePath, parseResponseBody } from '../api/response-body';
import type { ListPage } from '../../protocol/list-page';

/** The list operations whose items a store may validate, by operation name. */
const ITEM_CHECKED: ReadonlyMap<string, ListOperation<unknown, never>> = new Map(
  [
    organizationOperations.list,
    organizationMemberOperations.list,
    projectOperations.list,
    sectionOperations.list,
    taskCommentOperations.list,
    taskHistoryOperations.list,
    taskOperations.list,
    teamOperations.list,
    goalOperations.listInProject,
    // A collection kind's list under its parent (sprints, milestones, and any kind listed that way).
    ...COLLECTION_KINDS.filter((kind) => kind.listedPer === 'parent').map(
      (kind: WritableKind) => kindOperationsOf(kind).listInParent,
    ),
  ].map((operation) => [operation.name, operation as unknown as ListOperation<unknown, never>]),
);

const envelopeSchema = z.looseObject({
  data: z.array(z.unknown()),
  next_cursor: z.string().nullable(),
  total: z.number().int().nullish(),
});

/** The same operation, answered with only its envelope checked (items are checked where they are applied). */
export function envelopeOnly<Item, Params>(
  operation: ListOperation<Item, Params>,
): ListOperation<Item, Params> {
  if (!ITEM_CHECKED.has(operation.name)) return operation;
  return { ...operation, pageSchema: envelopeSchema as unknown as z.ZodType<ListPage<Item>> };
}

/**
 * An item of a page that failed its list's schema: left out of the page and
 * named (its raw value goes to the mirror, which reads its id with the
 * collection's own rules and keeps its previous copy).
 */
export interface SkippedItem {
  item: unknown;
  /** Where in the item, e.g. `status` or `replies[3].comment_id`; `(row)` for the item itself. */
  field: string;
  /** The schema's words (expectations, never the value received). */
  reason: string;
}

/** What a page's items came to: those read as parsed (unknown fields kept), and those left out. */
export interface CheckedItems {
  items: Record<string, unknown>[];
  skipped: SkippedItem[];
}

/** Ids, field paths and reasons of a hostile item may be huge (a key of megabytes): the log gets their start. */
const MAX_SKIP_TEXT = 200;

/** A skipped item's id, field or reason as it is told (sync log, events): at most MAX_SKIP_TEXT characters. */
export function clipped(text: string): string {
  return text.length > MAX_SKIP_TEXT ? `${text.slice(0, MAX_SKIP_TEXT - 1)}…` : text;
}

/**
 * Lists whose items the mirror checks itself as it writes them, field by field
 * against the same schema (db/tasks/task-columns.ts checkTask reads the task's
 * fields off taskSchema's shape, and refuses what it refuses): a schema walk
 * here would refuse nothing more, and copy every item (a first sync's pages
 * are tasks: ~3 ms of the pull worker's writing thread a page of 1000).
 */
const ROW_CHECKED: ReadonlySet<string> = new Set([taskOperations.list.name]);

/**
 * Checks a page's items against its operation's schema. The page is checked
 * whole first (the usual case costs one schema walk); only when it fails is
 * each item checked on its own, so that one bad item (a teammate's, a broken
 * answer) is left out instead of stopping its list at every pull. A list of
 * ROW_CHECKED has only its items that are no JSON object left out here.
 */
export function checkedItems(
  operationName: string,
  items: readonly unknown[],
  nextCursor: string | null,
): CheckedItems {
  const operation = ITEM_CHECKED.get(operationName);
  if (!operation) throw new Error(`no item schema is known for ${operationName}`);
  if (ROW_CHECKED.has(operationName)) return objectsOf(items);
  const page = operation.pageSchema.safeParse({ data: items, next_cursor: nextCursor });
  if (page.success) return { items: page.data.data as Record<string, unknown>[], skipped: [] };
  const checked: CheckedItems = { items: [], skipped: [] };
  for (const item of items) {
    // The page's own schema over a page of one: the same rules, whatever the operation's item schema is.
    const one = operation.pageSchema.safeParse({ data: [item], next_cursor: nextCursor });
    if (one.success) {
      checked.items.push(one.data.data[0] as Record<string, unknown>);
      continue;
    }
    const issue = one.error.issues[0];
    const path = issue?.path.slice(2) ?? [];
    // Zod's messages name expectations, not the values received (see response-body.ts).
    checked.skipped.push({
      item,
      field: path.length === 0 ? '(row)' : clipped(formatIssuePath(path)),
      reason: clipped(issue?.message ?? 'does not match the contract'),
    });
  }
  return checked;
}

/** The items that are JSON objects (what a mirror's row check reads), the others left out and named. */
function objectsOf(items: readonly unknown[]): CheckedItems {
  const checked: CheckedItems = { items: [], skipped: [] };
  for (const item of items) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item))
      checked.items.push(item as Record<string, unknown>);
    else checked.skipped.push({ item, field: '(row)', reason: 'expected an object' });
  }
  return checked;
}

/** The list operations whose pages a store checks itself (what a fuzz test must cover). */
export function itemCheckedOperationNames(): string[] {
  return [...ITEM_CHECKED.keys()];
}

/** Whether a store may check (and read) this operation's pages itself. */
export function isItemChecked(operationName: string): boolean {
  return ITEM_CHECKED.has(operationName);
}

/**
 * Reads a list page's 200 body as received: decoded, parsed and its envelope
 * checked, failing as the API client would (InvalidResponseError naming the
 * operation). The items are checked later, by checkedItems, where they are applied.
 */
export function readListBody(
  operationName: string,
  body: ArrayBuffer,
): { data: unknown[]; next_cursor: string | null; total?: number | null | undefined } {
  return parseResponseBody(operationName, 200, envelopeSchema, body);
}

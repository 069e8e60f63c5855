// When pages are applied in the worker, their items are validated there too:
// the main thread checks only the page envelope (`data` is an array,
// `next_cursor` a string or null) and hands the items over, and the worker
// checks them against the operation's item schema before writing anything,
// failing exactly as the API client would (InvalidResponseError naming the
// operation and `data[i].field`). A 1000-task page then costs the main thread
// one JSON.parse and one copy, not a schema walk of every task.
import { z } from 'zod';
import type { ListOperation } from '../api/operations';
import {
  organizationOperations,
  organizationMemberOperations,
  projectOperations,
  sectionOperations,
  sprintOperations,
  taskCommentOperations,
  taskHistoryOperations,
  taskOperations,
  teamOperations,
  goalOperations,
} from '../api/operations';
import { parseResponseBody, validateResponseBody } from '../api/response-body';
import type { ListPage } from '../../protocol/list-page';

/** The list operations whose items a store may validate, by operation name. */
const ITEM_CHECKED: ReadonlyMap<string, ListOperation<unknown, never>> = new Map(
  [
    organizationOperations.list,
    organizationMemberOperations.list,
    projectOperations.list,
    sectionOperations.list,
    sprintOperations.list,
    taskCommentOperations.list,
    taskHistoryOperations.list,
    taskOperations.list,
    teamOperations.list,
    goalOperations.listInProject,
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

/** Checks a page's items against its operation's schema; returns them as parsed (unknown fields kept). */
export function checkedItems(
  operationName: string,
  items: readonly unknown[],
  nextCursor: string | null,
): Record<string, unknown>[] {
  const operation = ITEM_CHECKED.get(operationName);
  if (!operation) throw new Error(`no item schema is known for ${operationName}`);
  const page = validateResponseBody(operationName, 200, operation.pageSchema, {
    data: items,
    next_cursor: nextCursor,
  });
  return page.data as Record<string, unknown>[];
}

/** Whether a store may check (and read) this operation's pages itself. */
export function isItemChecked(operationName: string): boolean {
  return ITEM_CHECKED.has(operationName);
}

/** Drops a byte order mark, as undici's text() does (JSON.parse refuses one). */
const utf8 = new TextDecoder();

/**
 * Reads a list page's 200 body as received: decoded, parsed and its envelope
 * checked, failing as the API client would (InvalidResponseError naming the
 * operation). The items are checked later, by checkedItems, where they are applied.
 */
export function readListBody(
  operationName: string,
  body: ArrayBuffer,
): { data: unknown[]; next_cursor: string | null; total?: number | null | undefined } {
  return parseResponseBody(operationName, 200, envelopeSchema, utf8.decode(body));
}

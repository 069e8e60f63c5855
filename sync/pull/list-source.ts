// A list on the service as the page walker sees it: one page per call, sent
// through the API client (rate governor, retries, validation) with the page's
// stored ETag as If-None-Match. A store that reads page bodies itself (the
// pull worker) gets each 200 body as received: this thread neither parses it
// nor holds its items.
import type { ApiClient } from '../api/api-client';
import type { PageRequest } from '../api/api-request';
import type { ListOperation } from '../api/operations';
import type { RequestLane } from '../api/rate-governor';
import { envelopeOnly, isItemChecked } from './deferred-validation';
import type { ListSource, PageAnswer } from './walk-types';
import type { PullStore } from './pull-store';

/** The envelope's closing members: `"next_cursor":"…"`, then only scalar members, then the closing brace. */
const NEXT_CURSOR_AT_END = /"next_cursor"\s*:\s*"([^"\\]*)"\s*(?:,[^{}[\]]*)?}\s*$/;
/** Bytes of a body's end scanned for it: a cursor and a few scalar members. */
const END_BYTES = 2048;

/**
 * The next page's cursor read off the end of a list body's text, without
 * parsing the body: only when the envelope ends with it (as the emulator and
 * the service write it), a plain string with no escapes; null otherwise (not
 * found, null, or somewhere else). A hint: the parsed body decides.
 */
export function nextCursorAtEnd(body: ArrayBuffer): string | null {
  const tail = new TextDecoder().decode(new Uint8Array(body, Math.max(0, body.byteLength - END_BYTES)));
  return NEXT_CURSOR_AT_END.exec(tail)?.[1] ?? null;
}

export function listSource<Item extends object, Params>(
  api: ApiClient,
  operation: ListOperation<Item, Params>,
  params: Params,
  page: Omit<PageRequest, 'cursor'>,
  lane: RequestLane,
  /** Where the pages go: if it validates items, only the envelope is checked here; if it reads bodies, not even that. */
  store?: Pick<PullStore, 'validatesItems' | 'readPage'>,
): ListSource {
  const readPage = store?.readPage?.bind(store);
  if (readPage !== undefined && isItemChecked(operation.name)) {
    return {
      async fetch(cursor, ifNoneMatch, signal, onNextCursor): Promise<PageAnswer> {
        const answer = await api.listPageBody(
          operation,
          params,
          { ...page, cursor },
          { ifNoneMatch, signal, lane },
        );
        if (answer.status === 304) return { status: 304 };
        // Before the body is handed over (transferred): the store may read it only after its current write.
        if (onNextCursor) {
          const next = nextCursorAtEnd(answer.body);
          if (next !== null) onNextCursor(next);
        }
        const read = await readPage(operation.name, answer.body);
        return {
          status: 200,
          etag: answer.etag,
          items: [],
          read: { readAs: read.readAs, count: read.count },
          nextCursor: read.nextCursor,
          total: read.total,
          uncheckedFrom: operation.name,
        };
      },
    };
  }
  const sent = store?.validatesItems === true ? envelopeOnly(operation) : operation;
  const deferred = sent !== operation;
  return {
    async fetch(cursor, ifNoneMatch, signal): Promise<PageAnswer> {
      const answer = await api.listPage(sent, params, { ...page, cursor }, { ifNoneMatch, signal, lane });
      if (answer.status === 304) return { status: 304 };
      return {
        status: 200,
        etag: answer.etag,
        items: answer.body.data as Record<string, unknown>[],
        nextCursor: answer.body.next_cursor,
        total: typeof answer.body.total === 'number' ? answer.body.total : null,
        ...(deferred ? { uncheckedFrom: operation.name } : {}),
      };
    },
  };
}

// A list on the service as the page walker sees it: one page per call, sent
// through the API client (rate governor, retries, validation) with the page's
// stored ETag as If-None-Match.
import type { ApiClient, PageRequest } from '../api/api-client';
import type { ListOperation } from '../api/operations';
import type { RequestLane } from '../api/rate-governor';
import { envelopeOnly } from './deferred-validation';
import type { ListSource, PageAnswer } from './page-walker';

export function listSource<Item extends object, Params>(
  api: ApiClient,
  operation: ListOperation<Item, Params>,
  params: Params,
  page: Omit<PageRequest, 'cursor'>,
  lane: RequestLane,
  /** The store validates items where it applies them: check only the envelope here. */
  deferItems = false,
): ListSource {
  const sent = deferItems ? envelopeOnly(operation) : operation;
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

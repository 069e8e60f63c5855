// What a request to the service is before it is sent: the caller's options per
// kind of operation, a list page's query parameters and the request the client
// loop sends. Apart from the client because it is pure shaping of the request,
// with no connection, token or retry in it.
import type { Readable } from 'node:stream';
import type { Endpoint, ListOperation } from './operations';
import type { RequestLane } from './rate-governor';

/** One page of a list, as `cursor`, `limit`, `sort_by`, `sort_order` and `filter[...]` parameters. */
export interface PageRequest {
  cursor?: string | null | undefined;
  limit?: number | undefined;
  sortBy?: string | undefined;
  sortOrder?: 'asc' | 'desc' | undefined;
  /** `filter[key]` values; an array repeats the parameter (values OR-ed). */
  filter?: Readonly<Record<string, string | number | boolean | readonly string[] | undefined>> | undefined;
}

export interface RequestOptions {
  /** Default: `background` for reads, `user` for writes. */
  lane?: RequestLane | undefined;
  signal?: AbortSignal | undefined;
}

export interface ReadOptions extends RequestOptions {
  /** The stored ETag: an unchanged resource answers 304 without a body. */
  ifNoneMatch?: string | null | undefined;
}

export interface CreateOptions extends RequestOptions {
  /** The operation id: a retry replays the first answer instead of creating twice. Without it, never retried. */
  idempotencyKey?: string | undefined;
}

export interface UploadOptions extends CreateOptions {
  /** Hears the bytes of the body sent so far and its length: from 0 on each attempt, rising to the length. */
  onProgress?: ((sentBytes: number, totalBytes: number) => void) | undefined;
}

export interface UpdateOptions extends RequestOptions {
  /** The base ETag: a stale one is a 412 and nothing is written. */
  ifMatch?: string | null | undefined;
  idempotencyKey?: string | undefined;
}

export interface DeleteOptions extends RequestOptions {
  ifMatch?: string | null | undefined;
}

/** A request as the client sends it, before its token and common headers. */
export interface RequestSpec {
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  endpoint: Endpoint;
  extraQuery?: [string, string][];
  headers: Record<string, string>;
  /** Text (JSON), or an upload's form as chunks read again from its start for each attempt. */
  body?: string | Uint8Array | (() => Iterable<Uint8Array>);
  lane: RequestLane;
  signal: AbortSignal | undefined;
  authenticated: boolean;
  /** Keep a 2xx body as bytes (`RawAnswer.bytes`) instead of decoding it. */
  bytes?: boolean;
  /**
   * Hand a 200 or 206 body to this as it arrives instead of reading it (a
   * download written to a file): a connection cut while it reads is a
   * transport failure like any, and a retry hands the new answer to it again.
   */
  sink?: ContentSink;
  /** Headers worked out again for each attempt (a download's `Range` from what it holds so far). */
  attemptHeaders?: () => Record<string, string>;
}

/** Takes a content answer's bytes as they arrive; its headers say which bytes (`content-range` on a 206). */
export type ContentSink = (answer: {
  status: 200 | 206;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  body: AsyncIterable<Uint8Array>;
}) => Promise<void>;

/** The path and query of `endpoint` under the base path, with `extra` parameters after its own. */
export function requestPath(basePath: string, endpoint: Endpoint, extra: [string, string][]): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(endpoint.query ?? {})) {
    if (value !== undefined) query.append(key, value);
  }
  for (const [key, value] of extra) query.append(key, value);
  const search = query.toString();
  return `${basePath}${endpoint.path}${search === '' ? '' : `?${search}`}`;
}

function pageQuery(page: PageRequest): [string, string][] {
  const out: [string, string][] = [];
  if (page.cursor !== undefined && page.cursor !== null) out.push(['cursor', page.cursor]);
  if (page.limit !== undefined) out.push(['limit', String(page.limit)]);
  if (page.sortBy !== undefined) out.push(['sort_by', page.sortBy]);
  if (page.sortOrder !== undefined) out.push(['sort_order', page.sortOrder]);
  for (const [key, value] of Object.entries(page.filter ?? {})) {
    if (value === undefined) continue;
    const values: readonly string[] = Array.isArray(value) ? value : [String(value)];
    for (const one of values) out.push([`filter[${key}]`, one]);
  }
  return out;
}

export function conditional(name: string, value: string | null | undefined): Record<string, string> {
  return value === undefined || value === null || value === '' ? {} : { [name]: value };
}

/**
 * What every request of `operation` says: its name, method and endpoint, its
 * lane (reads default to background, writes to user) and the caller's signal.
 */
export function requestOf<Params>(
  operation: { readonly name: string; endpoint(params: Params): Endpoint },
  params: Params,
  method: RequestSpec['method'],
  options: RequestOptions,
): Pick<RequestSpec, 'operation' | 'method' | 'endpoint' | 'lane' | 'signal'> {
  return {
    operation: operation.name,
    method,
    endpoint: operation.endpoint(params),
    lane: options.lane ?? (method === 'GET' ? 'background' : 'user'),
    signal: options.signal,
  };
}

/** The GET of one list page, conditional on the page's last ETag when given. */
export function listPageRequest<Item, Params>(
  operation: ListOperation<Item, Params>,
  params: Params,
  page: PageRequest,
  options: ReadOptions,
): RequestSpec {
  return {
    ...requestOf(operation, params, 'GET', options),
    extraQuery: pageQuery(page),
    headers: conditional('if-none-match', options.ifNoneMatch),
    authenticated: true,
  };
}

/**
 * The request's body for one attempt: an upload's chunks start again from the
 * first. undici sends an iterable as it pulls it, a chunk once the last is
 * written (documented for `request`), though its types name only Readable.
 */
export function requestBody(spec: RequestSpec): string | Uint8Array | Readable | null {
  if (typeof spec.body !== 'function') return spec.body ?? null;
  return spec.body() as unknown as Readable;
}

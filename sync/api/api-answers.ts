// What the service answered, read for the caller: a raw answer's headers, a
// 304 kept apart from a 200, a body validated against its operation's schema,
// and the rate-limit headers the governor learns from. Apart from the client
// because it reads one answer at a time and never sends anything.
import type { z } from 'zod';
import type { ListPage } from '../../protocol/list-page';
import { problemErrorFromAnswer } from './errors';
import type { RateObservation } from './rate-governor';
import { parseResponseBody } from './response-body';

export type ReadAnswer<Body> =
  | { status: 200; etag: string | null; body: Body; requestId: string | null }
  | { status: 304; etag: string | null; requestId: string | null };

export type ListAnswer<Item> = ReadAnswer<ListPage<Item>>;

/** A list page as received: a 200's body bytes, neither parsed nor validated (see listPageBody). */
export type ListBodyAnswer =
  | { status: 200; etag: string | null; body: ArrayBuffer; requestId: string | null }
  | { status: 304; etag: string | null; requestId: string | null };

export interface WriteAnswer<Body> {
  status: number;
  etag: string | null;
  body: Body;
  requestId: string | null;
}

export interface DeleteAnswer<Body> {
  status: number;
  /** Null for a 204 or when the operation's answer is not read. */
  body: Body | null;
  requestId: string | null;
}

/** An answer as received, before it is read. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** A 2xx body when the request asked for bytes. */
  bytes?: ArrayBuffer;
}

/** A GET's answer: a 304 with the tag it confirmed, or a 200 whose body matches `schema`. */
export function readAnswer<Body>(
  operation: string,
  schema: z.ZodType<Body>,
  answer: RawAnswer,
  sentTag: string | null | undefined,
): ReadAnswer<Body> {
  const requestId = header(answer.headers, 'x-request-id');
  const etag = header(answer.headers, 'etag');
  if (answer.status === 304) {
    return { status: 304, etag: etag ?? sentTag ?? null, requestId };
  }
  if (answer.status < 200 || answer.status > 299) throw unexpectedAnswer(operation, answer, requestId);
  const body = parseResponseBody(operation, answer.status, schema, answer.text);
  return { status: 200, etag, body, requestId };
}

export function writeAnswer<Body>(
  operation: string,
  schema: z.ZodType<Body>,
  answer: RawAnswer,
): WriteAnswer<Body> {
  return {
    status: answer.status,
    etag: header(answer.headers, 'etag'),
    body: parseResponseBody(operation, answer.status, schema, answer.text),
    requestId: header(answer.headers, 'x-request-id'),
  };
}

/** A list page's answer with its 200 body left as bytes (see ApiClient.listPageBody). */
export function listBodyAnswer(
  operation: string,
  answer: RawAnswer,
  sentTag: string | null | undefined,
): ListBodyAnswer {
  const requestId = header(answer.headers, 'x-request-id');
  const etag = header(answer.headers, 'etag');
  if (answer.status === 304) return { status: 304, etag: etag ?? sentTag ?? null, requestId };
  // A redirect or other 3xx, as in readAnswer.
  if (answer.bytes === undefined) throw unexpectedAnswer(operation, answer, requestId);
  return { status: 200, etag, body: answer.bytes, requestId };
}

/** A DELETE's answer: its body read only when the operation has one and it came. */
export function deleteAnswer<Body>(
  operation: string,
  schema: z.ZodType<Body> | null,
  answer: RawAnswer,
): DeleteAnswer<Body> {
  const requestId = header(answer.headers, 'x-request-id');
  if (answer.status === 204 || schema === null || answer.text === '') {
    return { status: answer.status, body: null, requestId };
  }
  return {
    status: answer.status,
    body: parseResponseBody(operation, answer.status, schema, answer.text),
    requestId,
  };
}

/** A redirect or other 3xx: undici does not follow them and the contract has none. */
function unexpectedAnswer(operation: string, answer: RawAnswer, requestId: string | null) {
  return problemErrorFromAnswer(operation, {
    status: answer.status,
    contentType: header(answer.headers, 'content-type'),
    text: answer.text,
    requestId,
    retryAfter: null,
  });
}

export function header(headers: RawAnswer['headers'], name: string): string | null {
  const value = headers[name];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function numberHeader(headers: RawAnswer['headers'], name: string): number | null {
  const value = header(headers, name);
  if (value === null || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

export function rateObservation(answer: RawAnswer, retryAfter: number | null): RateObservation {
  return {
    status: answer.status,
    limit: numberHeader(answer.headers, 'x-ratelimit-limit'),
    remaining: numberHeader(answer.headers, 'x-ratelimit-remaining'),
    resetSeconds: numberHeader(answer.headers, 'x-ratelimit-reset'),
    retryAfterSeconds: retryAfter,
  };
}

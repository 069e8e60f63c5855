// How the emulator's tests talk to it: one real HTTP request on 127.0.0.1,
// answered with its status, headers and body (parsed when it is JSON).
import type { ProblemErrorItem } from './problem';
import type { RunningEmulator } from './start';

/** What tests read off an answer when they do not name a type: problem fields, list fields, anything else unknown. */
export interface AnyBody {
  type?: string;
  title?: string;
  status?: number;
  detail?: unknown;
  instance?: string;
  request_id?: string;
  errors?: ProblemErrorItem[];
  data?: Record<string, unknown>[];
  next_cursor?: string | null;
  total?: number;
  [field: string]: unknown;
}

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
  total?: number;
}

export interface ApiAnswer<T = AnyBody> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or null for an empty body. */
  body: T;
  text: string;
}

export interface ApiCall {
  token?: string | null;
  body?: unknown;
  /** Sent as is (not JSON-encoded) when a string. */
  rawBody?: string;
  /** A multipart body (an upload); fetch writes its Content-Type with the boundary. */
  form?: FormData;
  contentType?: string;
  headers?: Record<string, string>;
}

export async function callApi<T = AnyBody>(
  emulator: Pick<RunningEmulator, 'baseUrl' | 'tokens'>,
  method: string,
  path: string,
  call: ApiCall = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { ...call.headers };
  const token = call.token === undefined ? emulator.tokens.live : call.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let payload: string | undefined;
  if (call.rawBody !== undefined) payload = call.rawBody;
  else if (call.body !== undefined) payload = JSON.stringify(call.body);
  if (payload !== undefined) headers['content-type'] = call.contentType ?? 'application/json';
  const body = call.form ?? payload;
  const response = await fetch(emulator.baseUrl + path, {
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    headers: response.headers,
    body: (text !== '' && type.includes('json') ? JSON.parse(text) : null) as T,
    text,
  };
}

/** Every item of a list, page by page (`limit`), following next_cursor until it is null. */
export async function walkList<T = Record<string, unknown>>(
  emulator: Pick<RunningEmulator, 'baseUrl' | 'tokens'>,
  path: string,
  options: { token?: string; limit?: number } = {},
): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  const sep = path.includes('?') ? '&' : '?';
  for (let guard = 0; guard < 10_000; guard++) {
    const page: string =
      `${path}${sep}limit=${options.limit ?? 100}` + (cursor ? `&cursor=${encodeURIComponent(cursor)}` : '');
    const answer = await callApi<Page<T>>(emulator, 'GET', page, {
      ...(options.token !== undefined ? { token: options.token } : {}),
    });
    if (answer.status !== 200) throw new Error(`GET ${page}: ${answer.status} ${answer.text}`);
    items.push(...answer.body.data);
    cursor = answer.body.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error('the list never ended');
}

// Reads a 2xx answer's body against the operation's schema. Whatever is wrong
// with it (not JSON, a field missing or of the wrong type) becomes an
// InvalidResponseError naming the operation and the field path, never a crash.
import type { z } from 'zod';
import { InvalidResponseError, type ResponseIssue } from './errors';
import { parseUtf8Json } from './utf8-json';

/** `['data', 3, 'task_id']` → `data[3].task_id`; the empty path is the body itself. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(body)' : out;
}

/** Validates an already parsed body. */
export function validateResponseBody<Schema extends z.ZodType>(
  operation: string,
  status: number,
  schema: Schema,
  body: unknown,
): z.infer<Schema> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  // Zod's messages name expectations, not the values received, so nothing of
  // the body (which may hold secrets, such as a minted token) leaks into them.
  const issues: ResponseIssue[] = result.error.issues.map((issue) => ({
    path: formatIssuePath(issue.path),
    message: issue.message,
  }));
  throw new InvalidResponseError(operation, status, issues);
}

/** Parses a body as JSON, its text or its UTF-8 bytes as received (utf8-json.ts), and validates it. */
export function parseResponseBody<Schema extends z.ZodType>(
  operation: string,
  status: number,
  schema: Schema,
  body: string | ArrayBuffer,
): z.infer<Schema> {
  let parsed: unknown;
  try {
    parsed = typeof body === 'string' ? JSON.parse(body) : parseUtf8Json(body);
  } catch {
    const none = typeof body === 'string' ? body === '' : body.byteLength === 0;
    throw new InvalidResponseError(operation, status, [
      { path: '(body)', message: none ? 'expected a JSON body, got none' : 'not valid JSON' },
    ]);
  }
  return validateResponseBody(operation, status, schema, parsed);
}

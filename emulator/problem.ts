// Errors the emulator answers: every route throws a ProblemReply and one
// Fastify error handler renders it as application/problem+json (RFC 9457) with
// `instance` (the request path) and `request_id` (also the X-Request-ID header).
import { type ProblemTypeName, problemTypeUri } from '../protocol/problem';

export interface ProblemErrorItem {
  loc?: (string | number)[];
  msg?: string;
  type?: string;
  allowed?: readonly string[];
  required?: string | null;
  reason?: string;
}

export class ProblemReply extends Error {
  override readonly name = 'ProblemReply';
  constructor(
    readonly status: number,
    /** A documented problem type, or null for `about:blank`. */
    readonly problemType: ProblemTypeName | null,
    readonly title: string,
    readonly detail: string | ProblemErrorItem[],
    readonly errors?: ProblemErrorItem[],
    /** Extra response headers, such as Retry-After on a 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : title);
  }

  get type(): string {
    return this.problemType === null ? 'about:blank' : problemTypeUri(this.problemType);
  }

  body(instance: string, requestId: string): Record<string, unknown> {
    return {
      type: this.type,
      title: this.title,
      status: this.status,
      detail: this.detail,
      instance,
      request_id: requestId,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export const notFound = (what: string): ProblemReply =>
  new ProblemReply(404, null, 'Not Found', `${what} not found`);

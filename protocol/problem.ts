// Problem details (RFC 9457): the body of every error the service answers, and
// the problem types the contract documents. Both the client and the emulator
// speak this vocabulary, so it lives here once.
import { z } from 'zod';

export const PROBLEM_PREFIX = 'urn:svc:problem:';

/** Problem types documented in the contract's Errors table (the part after `:problem:`). */
export const PROBLEM_TYPES = [
  'validation',
  'invalid-parameter',
  'precondition-failed',
  'idempotency-key-reused',
  'idempotency-key-in-flight',
  'idempotency-key-invalid',
  'rate-limit',
  'internal',
  'token-invalid',
  'token-expired',
  'token-revoked',
  'insufficient-scope',
  'test-token-read-only',
  'token-policy',
  'url-refused',
  'mfa-required',
  'email-unverified',
  'upload-too-large',
  'upload-type-not-allowed',
  'upload-type-mismatch',
  'upload-rejected',
] as const;
export type ProblemTypeName = (typeof PROBLEM_TYPES)[number];

/**
 * The short name of a problem type, whatever prefix it carries: problem types
 * under the service's former name mean the same (contract, Versioning), so we
 * match on what follows `:problem:`. `about:blank` and unknown shapes give null.
 */
export function problemTypeName(type: string): string | null {
  const at = type.lastIndexOf(':problem:');
  return at === -1 ? null : type.slice(at + ':problem:'.length);
}

export function problemTypeUri(name: ProblemTypeName): string {
  return PROBLEM_PREFIX + name;
}

/**
 * A member a problem may carry (the contract's "fields not marked required may
 * be absent or null", problem bodies included): null is kept as null, and a
 * value of the wrong type reads as absent, so one odd member never costs us the
 * rest of the problem.
 */
function member<Schema extends z.ZodType>(schema: Schema) {
  return schema.nullish().catch(undefined);
}

/** RFC 9457 section 3.1.1: when `type` is absent it is `about:blank`. */
export const ABOUT_BLANK = 'about:blank';

/** One item of `errors` (or of a 422's `detail` list); every member read on its own. */
export const problemErrorItemSchema = z.looseObject({
  loc: member(z.array(z.union([z.string(), z.number()]))),
  msg: member(z.string()),
  type: member(z.string()),
  allowed: member(z.array(z.string())),
  /** Null on purpose for an operation no token may call (contract, Authentication). */
  required: member(z.string()),
  reason: member(z.string()),
});
export type ProblemErrorItem = z.infer<typeof problemErrorItemSchema>;

/** The items of a list that are objects; anything else in it is dropped, the other items kept. */
export function problemErrorItems(items: readonly unknown[]): ProblemErrorItem[] {
  const out: ProblemErrorItem[] = [];
  for (const item of items) {
    const parsed = problemErrorItemSchema.safeParse(item);
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}

/** Only on `mfa-required`. */
export const problemMfaSchema = z.looseObject({
  enrolled: member(z.boolean()),
  /** `all` or `admins` today; kept as any string, a problem is never refused over it. */
  required_for: member(z.string()),
  /** `org_policy` or `step_up` today. */
  reason: member(z.string()),
});

/**
 * Any JSON object is a problem: it is known by the answer's status and its
 * `type` (absent, null or not a string: `about:blank`), whatever its other
 * members hold. Each member is read on its own; unknown members are kept.
 */
export const problemSchema = z.looseObject({
  type: z.string().catch(ABOUT_BLANK),
  title: member(z.string()),
  /** Advisory (RFC 9457 section 3.1.2): the HTTP status of the answer is what counts. */
  status: member(z.number().int()),
  /** A string, or for a 422 the list of validation errors. */
  detail: z.unknown().optional(),
  instance: member(z.string()),
  request_id: member(z.string()),
  errors: member(z.array(z.unknown()).transform(problemErrorItems)),
  mfa: member(problemMfaSchema),
});
export type Problem = z.infer<typeof problemSchema>;

/**
 * The body fields a 422 refused (each error's `loc`, `["body", field]`), once
 * each in the order named: what a refused change could be sent again without.
 */
export function refusedBodyFields(errors: readonly unknown[]): string[] {
  const fields = new Set<string>();
  for (const error of problemErrorItems(errors)) {
    const loc = error.loc ?? [];
    const field = loc.length === 2 && loc[0] === 'body' ? loc[1] : undefined;
    if (typeof field === 'string' && field !== '') fields.add(field);
  }
  return [...fields];
}

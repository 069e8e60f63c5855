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

export const problemErrorItemSchema = z.looseObject({
  loc: z.array(z.union([z.string(), z.number()])).optional(),
  msg: z.string().optional(),
  type: z.string().optional(),
  allowed: z.array(z.string()).optional(),
  required: z.string().nullable().optional(),
  reason: z.string().optional(),
});

/** Lenient: the documented fields are read when present, anything else is kept. */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string().optional(),
  status: z.number().int().optional(),
  detail: z.unknown().optional(),
  instance: z.string().optional(),
  request_id: z.string().optional(),
  errors: z.array(problemErrorItemSchema).optional(),
  /** Only on `mfa-required`. */
  mfa: z.looseObject({}).optional(),
});
export type Problem = z.infer<typeof problemSchema>;

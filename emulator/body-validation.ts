// Request bodies and queries checked against the contract's field bounds; any
// failure is one 422 `validation` problem listing `{loc, msg, type}` for every
// field at fault. Lengths count characters (Unicode code points), not UTF-16
// units, so a 500-emoji title is 500 characters.
import type { z } from 'zod';
import { boundedText, calendarDateField } from '../protocol/body-fields';
import { type ProblemErrorItem, ProblemReply } from './problem';

export function validationProblem(errors: ProblemErrorItem[]): ProblemReply {
  return new ProblemReply(422, 'validation', 'Validation failed', errors, errors);
}

export function fieldProblem(loc: (string | number)[], msg: string, type = 'value_error'): ProblemReply {
  return validationProblem([{ loc, msg, type }]);
}

/** A string of `min..max` characters (the protocol's bounds, so the client and the emulator count alike). */
export const text = boundedText;

/** A calendar date `YYYY-MM-DD`. */
export const daySchema = calendarDateField;

function typeOf(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom') {
    const params = (issue as { params?: { type?: string } }).params;
    return params?.type ?? 'value_error';
  }
  if (issue.code === 'invalid_type') return issue.input === undefined ? 'missing' : `${issue.expected}_type`;
  if (issue.code === 'invalid_value') return 'enum';
  if (issue.code === 'too_small') return issue.origin === 'array' ? 'too_short' : 'greater_than_equal';
  if (issue.code === 'too_big') return issue.origin === 'array' ? 'too_long' : 'less_than_equal';
  if (issue.code === 'unrecognized_keys') return 'extra_forbidden';
  return issue.code;
}

/** Parses `value` with `schema` or throws the 422 listing every issue under `where` (`body` or `query`). */
export function parseOr422<S extends z.ZodType>(
  schema: S,
  value: unknown,
  where: 'body' | 'query',
): z.infer<S> {
  if (
    where === 'body' &&
    (value === undefined || value === null || typeof value !== 'object' || Array.isArray(value))
  ) {
    throw fieldProblem(
      ['body'],
      'the body must be a JSON object',
      value === undefined ? 'missing' : 'model_attributes_type',
    );
  }
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw validationProblem(
    result.error.issues.map((issue) => ({
      loc: [where, ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))],
      msg: issue.message,
      type: typeOf(issue),
    })),
  );
}

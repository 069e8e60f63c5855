// Request bodies and queries checked against the contract's field bounds; any
// failure is one 422 `validation` problem listing `{loc, msg, type}` for every
// field at fault. Lengths count characters (Unicode code points), not UTF-16
// units, so a 500-emoji title is 500 characters.
import { z } from 'zod';
import { type ProblemErrorItem, ProblemReply } from './problem';

export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n += 1;
  }
  return n;
}

export function validationProblem(errors: ProblemErrorItem[]): ProblemReply {
  return new ProblemReply(422, 'validation', 'Validation failed', errors, errors);
}

export function fieldProblem(loc: (string | number)[], msg: string, type = 'value_error'): ProblemReply {
  return validationProblem([{ loc, msg, type }]);
}

/** A string of `min..max` characters. */
export function text(min: number, max: number) {
  return z.string().superRefine((value, ctx) => {
    const length = codePointLength(value);
    if (length < min) {
      ctx.addIssue({
        code: 'custom',
        message: min === 1 ? 'must not be empty' : `must have at least ${min} characters`,
        params: { type: 'string_too_short' },
      });
    } else if (length > max) {
      ctx.addIssue({
        code: 'custom',
        message: `must have at most ${max} characters`,
        params: { type: 'string_too_long' },
      });
    }
  });
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function isValidDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A calendar date `YYYY-MM-DD`. */
export const daySchema = z
  .string()
  .refine(isValidDay, { message: 'must be a date YYYY-MM-DD', params: { type: 'date_type' } });

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

// Field shapes of the request bodies the client sends and the service checks:
// text bounds counted in characters (Unicode code points, so 120 emoji are a
// 120-character name) and calendar dates that exist (`2026-02-30` does not).
import { z } from 'zod';
import { isValidDay } from './task-list-query';

export function codePointLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n += 1;
  }
  return n;
}

/**
 * A string of `min..max` characters. Its issues carry `params.type`
 * (`string_too_short`, `string_too_long`): the service's validation type, which
 * the emulator answers in a 422 item.
 */
export function boundedText(min: number, max: number) {
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

/**
 * A response field the contract bounds where it is written (e.g. a team's
 * name, 1..120 on create and update): longer, it could not have come through
 * the API, so it breaks the contract and its item is left out of its page.
 * Only the upper bound: an empty value is read as sent. The length counted in
 * code points only past `max` UTF-16 units (no string of `max` units has more).
 * Only for bounds service-api.md documents: gaps.md's (a task's title 1..500,
 * a goal's name 1..200) are assumptions and read leniently, so a real task is
 * never dropped over one; the mirror's MAX_ROW_TEXT (db/collections/row-nesting.ts)
 * bounds every text, these included.
 */
export function readTextAtMost(max: number) {
  return z.string().refine((value) => value.length <= max || codePointLength(value) <= max, {
    message: `must have at most ${max} characters (the contract's bound)`,
  });
}

/** A calendar date `YYYY-MM-DD` that exists. */
export const calendarDateField = z
  .string()
  .refine(isValidDay, { message: 'must be a date YYYY-MM-DD', params: { type: 'date_type' } });

/** An id the body refers to (the contract's `up to 1000` on ids). */
export const idReference = z.string().min(1).max(1000);

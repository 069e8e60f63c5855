// Field shapes the wire schemas share: the contract's conventions for
// identifiers, dates, date-times and "may be absent or null" response fields.
import { z } from 'zod';

/** An identifier the client keys on: a non-empty string. */
export const idField = z.string().min(1);

/** A calendar date as the contract writes it: `YYYY-MM-DD`. */
export const isoDateField = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date YYYY-MM-DD');

/**
 * A response field the contract does not mark required: it "may be absent or
 * null". Date-times stay plain strings; the client compares and shows them but
 * never needs to refuse a page because of their exact format.
 */
export const optionalString = z.string().nullish();
export const optionalInt = z.number().int().nullish();
export const optionalNumber = z.number().nullish();
export const optionalBoolean = z.boolean().nullish();
export const optionalDate = isoDateField.nullish();

/**
 * Who made a resource and last changed it, and when: fields the contract gives
 * most records, each nullable (spread into a record's schema).
 */
export const stampFields = {
  created_by: optionalString,
  updated_by: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
};

/** A free-form JSON object, kept whole. */
export const freeFormObjectSchema = z.record(z.string(), z.unknown());

/** A field of a stored resource read as text: its string, or null when it is anything else (absent, null, a number). */
export function textOf(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

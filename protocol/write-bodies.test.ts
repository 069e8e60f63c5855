// The request bodies of the writes beyond tasks (gaps.md "Writes beyond tasks"):
// each valid body passes, and each bound of the contract refuses the body one
// character past it, naming the field, so the client can say what to fix before
// anything is queued.
import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { goalCreateBodySchema, goalUpdateBodySchema } from './goal';
import { milestoneCreateBodySchema, milestoneUpdateBodySchema } from './milestone';
import { sectionCreateBodySchema, sectionUpdateBodySchema } from './section';
import { sprintCreateBodySchema, sprintUpdateBodySchema } from './sprint';
import {
  taskCommentCreateBodySchema,
  taskCommentReplyBodySchema,
  taskCommentUpdateBodySchema,
} from './task-comment';

const EMOJI = '😀'; // two UTF-16 units, one character

interface BodyCase {
  name: string;
  schema: z.ZodType;
  valid: Record<string, unknown>;
  /** A text field and its bounds in characters. */
  bounded: { field: string; min: number; max: number }[];
}

const cases: BodyCase[] = [
  {
    name: 'comment create',
    schema: taskCommentCreateBodySchema,
    valid: { task_id: 'k1', content: 'Looks good @ada' },
    bounded: [{ field: 'content', min: 1, max: 100_000 }],
  },
  {
    name: 'comment reply',
    schema: taskCommentReplyBodySchema,
    valid: { parent_comment_id: 'c1', content: 'Agreed' },
    bounded: [{ field: 'content', min: 1, max: 100_000 }],
  },
  {
    name: 'comment update',
    schema: taskCommentUpdateBodySchema,
    valid: { content: 'Edited' },
    bounded: [{ field: 'content', min: 1, max: 100_000 }],
  },
  {
    name: 'section create',
    schema: sectionCreateBodySchema,
    valid: { org_id: 'o1', scope_type: 'project', scope_id: 'p1', name: 'Later', position: null },
    bounded: [{ field: 'name', min: 1, max: 120 }],
  },
  {
    name: 'section update',
    schema: sectionUpdateBodySchema,
    valid: { name: 'Next week', position: 2048 },
    bounded: [{ field: 'name', min: 1, max: 120 }],
  },
  {
    name: 'sprint create',
    schema: sprintCreateBodySchema,
    valid: { name: 'Sprint 9', start_date: '2026-11-02', duration_weeks: 2 },
    bounded: [
      { field: 'name', min: 1, max: 120 },
      { field: 'description', min: 0, max: 2000 },
      { field: 'goal', min: 0, max: 2000 },
    ],
  },
  {
    name: 'sprint update',
    schema: sprintUpdateBodySchema,
    valid: { name: 'Sprint 9b', status: 'completed' },
    bounded: [{ field: 'name', min: 1, max: 120 }],
  },
  {
    name: 'goal create',
    schema: goalCreateBodySchema,
    valid: { name: 'Ship', target_date: '2026-12-01', position: 3 },
    bounded: [{ field: 'name', min: 1, max: 200 }],
  },
  {
    name: 'goal update',
    schema: goalUpdateBodySchema,
    valid: { status: 'closed' },
    bounded: [{ field: 'name', min: 1, max: 200 }],
  },
  {
    name: 'milestone create',
    schema: milestoneCreateBodySchema,
    valid: { name: 'Beta', due_date: '2026-12-15', description: null },
    bounded: [{ field: 'name', min: 1, max: 120 }],
  },
  {
    name: 'milestone update',
    schema: milestoneUpdateBodySchema,
    valid: { status: 'completed', position: 1.5 },
    bounded: [{ field: 'name', min: 1, max: 120 }],
  },
];

function refusedFields(schema: z.ZodType, body: unknown): string[] {
  const result = schema.safeParse(body);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join('.'));
}

const bounds = cases.flatMap((c) => c.bounded.map((b) => ({ ...c, ...b })));

describe('write bodies', () => {
  test.each(cases)('$name: a valid body passes', ({ schema, valid }) => {
    expect(refusedFields(schema, valid)).toEqual([]);
  });

  test.each(bounds)('$name: $field holds $min..$max characters', ({ schema, valid, field, min, max }) => {
    expect(refusedFields(schema, { ...valid, [field]: EMOJI.repeat(max) })).toEqual([]);
    expect(refusedFields(schema, { ...valid, [field]: 'x'.repeat(max + 1) })).toEqual([field]);
    if (min > 0) expect(refusedFields(schema, { ...valid, [field]: '' })).toEqual([field]);
    else expect(refusedFields(schema, { ...valid, [field]: '' })).toEqual([]);
  });

  test('a sprint takes an end date or a length in weeks, never both', () => {
    const start = { name: 'S', start_date: '2026-11-02' };
    expect(refusedFields(sprintCreateBodySchema, { ...start, end_date: '2026-11-15' })).toEqual([]);
    expect(refusedFields(sprintCreateBodySchema, start)).toEqual([]);
    expect(
      refusedFields(sprintCreateBodySchema, { ...start, end_date: '2026-11-15', duration_weeks: 2 }).sort(),
    ).toEqual(['duration_weeks', 'end_date']);
    expect(
      refusedFields(sprintUpdateBodySchema, { end_date: '2026-11-15', duration_weeks: 2 }).sort(),
    ).toEqual(['duration_weeks', 'end_date']);
    expect(refusedFields(sprintCreateBodySchema, { ...start, duration_weeks: 53 })).toEqual([
      'duration_weeks',
    ]);
    expect(refusedFields(sprintCreateBodySchema, { name: 'S' })).toEqual(['start_date']);
  });

  test('dates must exist and statuses are the documented ones', () => {
    expect(refusedFields(milestoneCreateBodySchema, { name: 'M', due_date: '2026-02-30' })).toEqual([
      'due_date',
    ]);
    expect(refusedFields(goalUpdateBodySchema, { status: 'archived' })).toEqual(['status']);
    expect(refusedFields(milestoneUpdateBodySchema, { status: 'closed' })).toEqual(['status']);
    expect(refusedFields(sprintUpdateBodySchema, { status: 'planned' })).toEqual(['status']);
    expect(
      refusedFields(sectionCreateBodySchema, { org_id: 'o1', scope_type: 'org', scope_id: 'x', name: 'A' }),
    ).toEqual(['scope_type']);
  });
});

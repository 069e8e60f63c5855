// "Response fields not marked required may be absent or null" (contract), for
// every field of every response schema in this folder: the fields are read from
// the schemas' shapes, so a new field is covered the day it is added, and each
// schema's required fields are listed here from the contract, so making one of
// them optional (or a new field required) fails until this list agrees.
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { accessTokenSchema, tokenCreatedSchema } from './access-token';
import { acknowledgementSchema } from './acknowledgement';
import {
  goalDeletedSchema,
  goalSchema,
  groupedGoalsSchema,
  groupedGoalsUnreadSchema,
  projectGoalsSchema,
} from './goal';
import { healthSchema } from './health';
import { listPageSchema } from './list-page';
import { meSchema } from './me';
import {
  groupedMilestonesSchema,
  milestoneSchema,
  milestoneTaskUnfiledSchema,
  projectMilestonesSchema,
} from './milestone';
import { organizationSchema } from './organization';
import { organizationMemberSchema } from './organization-member';
import { problemErrorItemSchema, problemMfaSchema, problemSchema } from './problem';
import { projectSchema } from './project';
import { sectionSchema } from './section';
import { taskAttachmentSchema } from './task-attachment';
import { viewSchema } from './view';
import { viewPinSchema } from './view-pin';
import { sprintSchema } from './sprint';
import { taskSchema } from './task';
import { commentMentionSchema, taskCommentFieldsSchema } from './task-comment';
import { taskHistoryChangeSchema, taskHistoryEntrySchema } from './task-history';
import { teamDetailSchema, teamMemberSchema, teamSchema } from './team';
import { SPRINT_SAMPLE, TOKEN_SAMPLE } from './testing/wire-samples';

interface WireSchema {
  /** The export's name (the completeness check matches on it). */
  name: string;
  schema: z.ZodType;
  /** The smallest valid answer: exactly the required fields. */
  minimal: Record<string, unknown>;
  /** Required and never null. */
  required: readonly string[];
  /** Required, but null is a value (`next_cursor`, a member's `email`). */
  requiredNullable?: readonly string[];
  /** Fields whose absence or null reads as a value (a problem's `type`: about:blank). */
  missingReadsAs?: Readonly<Record<string, unknown>>;
  /** Problem bodies: any member of any type is tolerated (a wrong one is dropped). */
  anyValue?: boolean;
}

const tokenRequired = [
  'token_id',
  'org_id',
  'principal_user_id',
  'created_by',
  'name',
  'token_prefix',
  'kind',
  'grant_type',
  'scopes',
  'status',
] as const;

/** Every response schema in `protocol/`, with the contract's required fields. */
const wireSchemas: WireSchema[] = [
  { name: 'accessTokenSchema', schema: accessTokenSchema, minimal: TOKEN_SAMPLE, required: tokenRequired },
  {
    name: 'tokenCreatedSchema',
    schema: tokenCreatedSchema,
    minimal: { ...TOKEN_SAMPLE, token: 'svc_live_secret' },
    required: [...tokenRequired, 'token'],
  },
  {
    name: 'goalSchema',
    schema: goalSchema,
    minimal: { goal_id: 'g1', org_id: 'o1', project_id: 'p1', name: 'Ship' },
    required: ['goal_id', 'org_id', 'project_id', 'name'],
  },
  {
    // Not marked required by the contract; the client needs a group's goals and
    // cursor as it needs a list's envelope (see goal.ts).
    name: 'projectGoalsSchema',
    schema: projectGoalsSchema,
    minimal: { data: [], next_cursor: null },
    required: ['data'],
    requiredNullable: ['next_cursor'],
  },
  {
    name: 'groupedGoalsSchema',
    schema: groupedGoalsSchema,
    minimal: { projects: [] },
    required: ['projects'],
  },
  {
    // The same answer, its goals checked later, one by one (sync/pull/deferred-validation.ts).
    name: 'groupedGoalsUnreadSchema',
    schema: groupedGoalsUnreadSchema,
    minimal: { projects: [] },
    required: ['projects'],
  },
  {
    name: 'goalDeletedSchema',
    schema: goalDeletedSchema,
    minimal: { ok: true, goal_id: 'g1', unfiled_tasks: 0 },
    required: ['ok', 'goal_id', 'unfiled_tasks'],
  },
  { name: 'healthSchema', schema: healthSchema, minimal: {}, required: [] },
  {
    name: 'acknowledgementSchema',
    schema: acknowledgementSchema,
    minimal: { ok: true },
    required: ['ok'],
  },
  {
    // Assumed (gaps.md "Milestones"): the client keys on the id, groups and files by the project, shows the name.
    name: 'milestoneSchema',
    schema: milestoneSchema,
    minimal: { milestone_id: 'm1', project_id: 'p1', name: 'Beta' },
    required: ['milestone_id', 'project_id', 'name'],
  },
  {
    // Assumed (gaps.md "Attachments"): the client keys on the attachment's id and its task's.
    name: 'taskAttachmentSchema',
    schema: taskAttachmentSchema,
    minimal: { attachment_id: 'att1', task_id: 't1' },
    required: ['attachment_id', 'task_id'],
  },
  {
    // Assumed (gaps.md "Saved views and view pins"): the client keys on the id and shows the name; filters may be absent.
    name: 'viewSchema',
    schema: viewSchema,
    minimal: { view_id: 'v1', name: 'Blocked' },
    required: ['view_id', 'name'],
  },
  {
    name: 'viewPinSchema',
    schema: viewPinSchema,
    minimal: { pin_id: 'pin1', view_id: 'v1' },
    required: ['pin_id', 'view_id'],
  },
  {
    // As projectGoalsSchema: a group's milestones and cursor are its list envelope.
    name: 'projectMilestonesSchema',
    schema: projectMilestonesSchema,
    minimal: { data: [], next_cursor: null },
    required: ['data'],
    requiredNullable: ['next_cursor'],
  },
  {
    name: 'groupedMilestonesSchema',
    schema: groupedMilestonesSchema,
    minimal: { projects: [] },
    required: ['projects'],
  },
  {
    name: 'milestoneTaskUnfiledSchema',
    schema: milestoneTaskUnfiledSchema,
    minimal: { ok: true, milestone_id: 'm1', task_id: 'k1' },
    required: ['ok', 'milestone_id', 'task_id'],
  },
  {
    // Assumed (gaps.md); the client keys on the id and matches `assignee` on the username.
    name: 'meSchema',
    schema: meSchema,
    minimal: { user_id: 'u1', username: 'ada' },
    required: ['user_id', 'username'],
  },
  {
    name: 'organizationMemberSchema',
    schema: organizationMemberSchema,
    minimal: { user_id: 'u1', org_id: 'o1', email: null, username: null },
    required: ['user_id', 'org_id'],
    requiredNullable: ['email', 'username'],
  },
  { name: 'organizationSchema', schema: organizationSchema, minimal: { org_id: 'o1' }, required: ['org_id'] },
  {
    // The contract marks type, title, status, detail, instance and request_id
    // required, yet a problem is known by its status and type whatever it holds.
    name: 'problemSchema',
    schema: problemSchema,
    minimal: {},
    required: [],
    missingReadsAs: { type: 'about:blank' },
    anyValue: true,
  },
  {
    name: 'problemErrorItemSchema',
    schema: problemErrorItemSchema,
    minimal: {},
    required: [],
    anyValue: true,
  },
  { name: 'problemMfaSchema', schema: problemMfaSchema, minimal: {}, required: [], anyValue: true },
  {
    name: 'projectSchema',
    schema: projectSchema,
    minimal: { project_id: 'p1' },
    required: ['project_id'],
  },
  {
    name: 'sectionSchema',
    schema: sectionSchema,
    minimal: {
      section_id: 's1',
      org_id: 'o1',
      name: 'Doing',
      scope_type: 'project',
      scope_id: 'p1',
      position: 0,
    },
    required: ['section_id', 'org_id', 'name', 'scope_type', 'scope_id', 'position'],
  },
  {
    name: 'sprintSchema',
    schema: sprintSchema,
    minimal: SPRINT_SAMPLE,
    required: ['sprint_id', 'org_id', 'team_id', 'name', 'start_date', 'end_date'],
  },
  {
    // Assumed (gaps.md): a title and a status are what a task is shown and filtered by.
    name: 'taskSchema',
    schema: taskSchema,
    minimal: { task_id: 'k1', title: 'Fix', status: 'in_progress' },
    required: ['task_id', 'title', 'status'],
  },
  { name: 'commentMentionSchema', schema: commentMentionSchema, minimal: {}, required: [] },
  {
    // The thread schema reads replies without recursion; a comment's own fields are this object.
    name: 'taskCommentFieldsSchema',
    schema: taskCommentFieldsSchema,
    minimal: { comment_id: 'c1', task_id: 'k1' },
    required: ['comment_id', 'task_id'],
  },
  { name: 'taskHistoryChangeSchema', schema: taskHistoryChangeSchema, minimal: {}, required: [] },
  {
    name: 'taskHistoryEntrySchema',
    schema: taskHistoryEntrySchema,
    minimal: { history_id: 'h1', task_id: 'k1', action: 'updated', created_by: 'ada' },
    required: ['history_id', 'task_id', 'action', 'created_by'],
  },
  {
    name: 'teamSchema',
    schema: teamSchema,
    minimal: { team_id: 't1', org_id: 'o1', name: 'Core' },
    required: ['team_id', 'org_id', 'name'],
  },
  {
    name: 'teamMemberSchema',
    schema: teamMemberSchema,
    minimal: { team_id: 't1', user_id: 'u1', team_role: 'member' },
    required: ['team_id', 'user_id', 'team_role'],
  },
  {
    name: 'teamDetailSchema',
    schema: teamDetailSchema,
    minimal: { team_id: 't1', org_id: 'o1', name: 'Core' },
    required: ['team_id', 'org_id', 'name'],
  },
  {
    // "Every list answers {data, next_cursor}"; absent is not null: a list is read to its null cursor.
    name: 'listPageSchema',
    schema: listPageSchema(z.looseObject({ id: z.string() })),
    minimal: { data: [], next_cursor: null },
    required: ['data'],
    requiredNullable: ['next_cursor'],
  },
];

/** Files whose schemas another part owns or that hold no response schema. */
const NOT_RESPONSE_SCHEMAS: Readonly<Record<string, string>> = {
  // The OAuth token endpoint's answers follow RFC 6749, not this contract's rule.
  'oauth-token.ts': 'RFC 6749 answers, tested with the token endpoint',
};

const EXTRA = { brand_new_field: { nested: [1, null] } };

function shapeOf(schema: z.ZodType): Record<string, z.ZodType> {
  if (!(schema instanceof z.ZodObject)) throw new Error('not an object schema');
  return schema.shape;
}

function without(sample: Record<string, unknown>, field: string): Record<string, unknown> {
  const { [field]: _dropped, ...rest } = sample;
  return rest;
}

function parsed(schema: z.ZodType, body: unknown): Record<string, unknown> {
  const result = schema.safeParse(body);
  if (!result.success) {
    throw new Error(`refused: ${result.error.issues.map((issue) => issue.path.join('.')).join(', ')}`);
  }
  return result.data as Record<string, unknown>;
}

const cases = wireSchemas.map((wire) => ({
  ...wire,
  optional: Object.keys(shapeOf(wire.schema)).filter(
    (field) => !wire.required.includes(field) && !(wire.requiredNullable ?? []).includes(field),
  ),
}));
const optionalFields = cases.flatMap((wire) => wire.optional.map((field) => ({ ...wire, field })));
const requiredFields = cases.flatMap((wire) =>
  [...wire.required, ...(wire.requiredNullable ?? [])].map((field) => ({ ...wire, field })),
);

describe('every response schema', () => {
  test('is in this table (a new schema in protocol/ is covered or named as not a response)', async () => {
    const folder = dirname(fileURLToPath(import.meta.url));
    const listed = new Set(wireSchemas.map((wire) => wire.name));
    const missing: string[] = [];
    for (const file of readdirSync(folder)) {
      if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file in NOT_RESPONSE_SCHEMAS) continue;
      const exports = (await import(join(folder, file))) as Record<string, unknown>;
      for (const [name, value] of Object.entries(exports)) {
        // Request bodies (`…BodySchema`) are what we send, not answers: write-bodies.test.ts holds them.
        if (name.endsWith('BodySchema')) continue;
        if (value instanceof z.ZodObject && !listed.has(name)) missing.push(`${basename(file)}: ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test.each(cases)(
    '$name: its required fields are exactly the contract’s',
    ({ schema, minimal, required, requiredNullable }) => {
      const shape = shapeOf(schema);
      const notOptional = Object.keys(shape).filter(
        (field) => !schema.safeParse(without(minimal, field)).success,
      );
      expect(notOptional.sort()).toEqual([...required, ...(requiredNullable ?? [])].sort());
      expect(parsed(schema, { ...minimal, ...EXTRA })).toMatchObject({ ...minimal, ...EXTRA });
    },
  );

  test.each(optionalFields)('$name, $field may be absent', ({ schema, minimal, field, missingReadsAs }) => {
    const body = { ...without(minimal, field), ...EXTRA };
    const out = parsed(schema, body);
    expect(out.brand_new_field).toEqual(EXTRA.brand_new_field);
    expect(out[field]).toEqual(missingReadsAs?.[field]);
  });

  test.each(optionalFields)('$name, $field may be null', ({ schema, minimal, field, missingReadsAs }) => {
    const out = parsed(schema, { ...minimal, [field]: null, ...EXTRA });
    expect(out.brand_new_field).toEqual(EXTRA.brand_new_field);
    expect(out[field]).toEqual(missingReadsAs?.[field] ?? null);
  });

  test.each(cases)('$name: every optional field null at once', ({ schema, minimal, optional }) => {
    const nulls = Object.fromEntries(optional.map((field) => [field, null]));
    expect(schema.safeParse({ ...minimal, ...nulls, ...EXTRA }).success).toBe(true);
  });

  test.each(requiredFields)(
    '$name, $field is required: its absence is refused, naming it',
    ({ schema, minimal, field }) => {
      const result = schema.safeParse({ ...without(minimal, field), ...EXTRA });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(field);
    },
  );

  test.each(requiredFields)(
    '$name, $field: null is a value only where the contract says nullable',
    ({ schema, minimal, field, requiredNullable }) => {
      const result = schema.safeParse({ ...minimal, [field]: null });
      expect(result.success).toBe((requiredNullable ?? []).includes(field));
    },
  );

  const oddValues = [42, 'text', true, [], {}, [null]];
  test.each(optionalFields.filter((wire) => wire.anyValue))(
    '$name, $field of any type leaves the problem readable',
    ({ schema, minimal, field }) => {
      for (const value of oddValues) {
        expect(
          schema.safeParse({ ...minimal, [field]: value, ...EXTRA }).success,
          JSON.stringify(value),
        ).toBe(true);
      }
    },
  );
});

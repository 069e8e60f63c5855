import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { accessTokenSchema, tokenCreatedSchema } from './access-token';
import { goalDeletedSchema, goalSchema, groupedGoalsSchema } from './goal';
import { listPageSchema } from './list-page';
import { meSchema } from './me';
import { oauthErrorSchema, oauthTokenSchema } from './oauth-token';
import { organizationSchema } from './organization';
import { organizationMemberSchema } from './organization-member';
import { problemSchema, problemTypeName } from './problem';
import { projectSchema } from './project';
import { sectionSchema } from './section';
import { sprintSchema } from './sprint';
import { taskSchema } from './task';
import { taskAttachmentSchema } from './task-attachment';
import { MAX_REPLY_DEPTH, type TaskComment, taskCommentSchema } from './task-comment';
import { taskHistoryEntrySchema } from './task-history';
import { teamDetailSchema, teamMemberSchema, teamSchema } from './team';
import { SPRINT_SAMPLE, TOKEN_SAMPLE } from './testing/wire-samples';

const goal = {
  goal_id: 'g1',
  org_id: 'o1',
  project_id: 'p1',
  name: 'Ship',
  status: 'open',
  target_date: '2026-12-01',
  tasks_total: 3,
  tasks_completed: 1,
};
const goalsGroup = {
  project_id: 'p1',
  data: [goal],
  next_cursor: null,
  goals_tasks_total: 3,
  goals_tasks_completed: 1,
};
const teamMember = { team_id: 't1', user_id: 'u1', team_role: 'owner', username: 'ada' };

/** A valid answer of each resource, and a field whose absence must fail (documented) or pass (assumed). */
const resources: {
  name: string;
  schema: z.ZodType;
  sample: Record<string, unknown>;
  required: string;
}[] = [
  {
    name: 'organization',
    schema: organizationSchema,
    sample: { org_id: 'o1', name: 'Acme', slug: 'acme' },
    required: 'org_id',
  },
  {
    name: 'project',
    schema: projectSchema,
    sample: { project_id: 'p1', org_id: 'o1', name: 'Web', status: 'active' },
    required: 'project_id',
  },
  {
    name: 'team',
    schema: teamSchema,
    sample: { team_id: 't1', org_id: 'o1', name: 'Core', team_role: null },
    required: 'name',
  },
  { name: 'team member', schema: teamMemberSchema, sample: teamMember, required: 'team_role' },
  {
    name: 'team detail',
    schema: teamDetailSchema,
    sample: { team_id: 't1', org_id: 'o1', name: 'Core', members: [teamMember] },
    required: 'team_id',
  },
  {
    name: 'organization member',
    schema: organizationMemberSchema,
    sample: { user_id: 'u1', org_id: 'o1', email: null, username: 'ada', kind: 'user' },
    required: 'email',
  },
  {
    name: 'section',
    schema: sectionSchema,
    sample: {
      section_id: 's1',
      org_id: 'o1',
      name: 'Doing',
      scope_type: 'project',
      scope_id: 'p1',
      position: 1.5,
    },
    required: 'position',
  },
  {
    name: 'sprint',
    schema: sprintSchema,
    sample: SPRINT_SAMPLE,
    required: 'end_date',
  },
  { name: 'goal', schema: goalSchema, sample: goal, required: 'project_id' },
  {
    name: 'grouped goals',
    schema: groupedGoalsSchema,
    sample: {
      org_id: 'o1',
      projects: [
        { project_id: 'p1', data: [goal], next_cursor: null, goals_tasks_total: 3, goals_tasks_completed: 1 },
      ],
      total: 1,
    },
    required: 'projects',
  },
  {
    name: 'goal deleted',
    schema: goalDeletedSchema,
    sample: { ok: true, goal_id: 'g1', unfiled_tasks: 4 },
    required: 'unfiled_tasks',
  },
  {
    name: 'task comment',
    schema: taskCommentSchema,
    sample: { comment_id: 'c1', task_id: 'k1', content: 'hi', replies: [] },
    required: 'comment_id',
  },
  {
    name: 'task attachment',
    schema: taskAttachmentSchema,
    sample: { attachment_id: 'a1', task_id: 'k1', file_name: 'plan.pdf', size_bytes: 1024, sha256: null },
    required: 'attachment_id',
  },
  {
    name: 'task history entry',
    schema: taskHistoryEntrySchema,
    sample: {
      history_id: 'h1',
      task_id: 'k1',
      action: 'updated',
      created_by: 'ada',
      metadata: [{ field: 'status', old: 'blocked', new: 'completed' }],
    },
    required: 'action',
  },
  {
    name: 'me',
    schema: meSchema,
    sample: { user_id: 'u1', username: 'ada', email: 'a@x.test', org_id: 'o1' },
    required: 'username',
  },
  {
    name: 'oauth token',
    schema: oauthTokenSchema,
    sample: {
      access_token: 'svc_live_x',
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: 'r1',
      scope: 'tasks:read',
    },
    required: 'access_token',
  },
  { name: 'oauth error', schema: oauthErrorSchema, sample: { error: 'invalid_grant' }, required: 'error' },
  { name: 'access token', schema: accessTokenSchema, sample: TOKEN_SAMPLE, required: 'token_prefix' },
  {
    name: 'token created',
    schema: tokenCreatedSchema,
    sample: { ...TOKEN_SAMPLE, token: 'svc_live_secret' },
    required: 'token',
  },
  {
    name: 'task',
    schema: taskSchema,
    sample: { task_id: 'k1', title: 'Fix', status: 'in_progress', tags: ['a'], due_date: '2026-11-30' },
    required: 'task_id',
  },
];

describe('wire schemas', () => {
  test.each(resources)(
    '$name: accepts a valid answer and keeps fields it does not know',
    ({ schema, sample }) => {
      const parsed = schema.parse({ ...sample, brand_new_field: { nested: [1, 2] } }) as Record<
        string,
        unknown
      >;
      expect(parsed).toMatchObject(sample);
      expect(parsed.brand_new_field).toEqual({ nested: [1, 2] });
    },
  );

  test.each(resources)(
    '$name: refuses an answer without its required field, naming it',
    ({ schema, sample, required }) => {
      const { [required]: _dropped, ...rest } = sample;
      const result = schema.safeParse(rest);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toContain(required);
    },
  );

  test.each([
    [
      'task status',
      taskSchema,
      { task_id: 'k1', title: 'x', status: 'in_review', priority: 'critical', task_type: 'epic' },
    ],
    ['project status', projectSchema, { project_id: 'p1', status: 'frozen' }],
    [
      'sprint status',
      sprintSchema,
      {
        sprint_id: 's',
        org_id: 'o',
        team_id: 't',
        name: 'n',
        start_date: '2026-01-01',
        end_date: '2026-01-14',
        status: 'planned',
      },
    ],
    ['goal status', goalSchema, { ...goal, status: 'achieved' }],
  ] as const)('keeps an unknown value of an assumed set (%s) as a string', (_name, schema, sample) => {
    expect(schema.parse(sample)).toMatchObject(sample);
  });

  test.each([
    [
      'a section scope',
      sectionSchema,
      { section_id: 's1', org_id: 'o1', name: 'x', scope_type: 'galaxy', scope_id: 'p1', position: 0 },
      'scope_type',
    ],
    ['a team role', teamMemberSchema, { ...teamMember, team_role: 'boss' }, 'team_role'],
    ['a token kind', accessTokenSchema, { ...TOKEN_SAMPLE, kind: 'demo' }, 'kind'],
  ] as const)('refuses a value outside a documented set (%s)', (_name, schema, sample, field) => {
    const result = schema.safeParse(sample);
    expect(result.error?.issues[0]?.path).toEqual([field]);
  });

  test('tolerates a missing or null optional field', () => {
    expect(goalSchema.safeParse({ ...goal, description: null, target_date: undefined }).success).toBe(true);
    expect(taskSchema.safeParse({ task_id: 'k1', title: 'x', status: 'blocked', tags: null }).success).toBe(
      true,
    );
  });

  test('refuses a documented date in another format', () => {
    const result = sprintSchema.safeParse({
      sprint_id: 's',
      org_id: 'o',
      team_id: 't',
      name: 'n',
      start_date: '01/02/2026',
      end_date: '2026-01-14',
    });
    expect(result.error?.issues[0]?.path).toEqual(['start_date']);
  });

  test('reads replies of replies, and names the field deep inside them', () => {
    const thread = {
      comment_id: 'c1',
      task_id: 'k1',
      replies: [
        { comment_id: 'c2', task_id: 'k1', replies: [{ comment_id: 'c3', task_id: 'k1', mood: 'happy' }] },
      ],
    };
    const parsed = taskCommentSchema.parse(thread);
    expect(parsed.replies?.[0]?.replies?.[0]).toEqual({ comment_id: 'c3', task_id: 'k1', mood: 'happy' });

    const broken = {
      ...thread,
      replies: [{ comment_id: 'c2', task_id: 'k1', replies: [{ task_id: 'k1' }] }],
    };
    const result = taskCommentSchema.safeParse(broken);
    expect(result.error?.issues[0]?.path).toEqual(['replies', 0, 'replies', 0, 'comment_id']);
  });

  test('a thread nested 1 200 deep is read, every reply kept in order, flattened past MAX_REPLY_DEPTH (issue 27)', () => {
    // Built from the inside out; a recursive parse threw RangeError on it.
    let thread: Record<string, unknown> = { comment_id: 'c1200', task_id: 'k1' };
    for (let index = 1199; index >= 1; index -= 1) {
      thread = { comment_id: `c${index}`, task_id: 'k1', replies: [thread] };
    }
    const parsed = taskCommentSchema.parse(thread);

    const seen: string[] = [];
    let level: TaskComment[] = [parsed];
    let depth = 0;
    let deepest = 0;
    while (level.length > 0) {
      const next: TaskComment[] = [];
      for (const comment of level) {
        seen.push(comment.comment_id);
        next.push(...(comment.replies ?? []));
      }
      deepest = depth;
      depth += 1;
      level = next;
    }
    expect(deepest).toBe(MAX_REPLY_DEPTH);
    expect(seen).toEqual(Array.from({ length: 1200 }, (_, index) => `c${index + 1}`));
  });

  test("flattened replies keep the order they were written in, siblings after a reply's own", () => {
    const chain = (id: string, depth: number, tail: Record<string, unknown>[]): Record<string, unknown> =>
      depth === 0
        ? { comment_id: id, task_id: 'k1', replies: tail }
        : { comment_id: `${id}.${depth}`, task_id: 'k1', replies: [chain(id, depth - 1, tail)] };
    const leaf = (id: string) => ({ comment_id: id, task_id: 'k1' });
    const thread = chain('a', MAX_REPLY_DEPTH, [
      { ...leaf('x'), replies: [leaf('x1'), leaf('x2')] },
      leaf('y'),
    ]);
    let comment = taskCommentSchema.parse(thread);
    for (let depth = 0; depth < MAX_REPLY_DEPTH - 1; depth += 1)
      comment = comment.replies?.[0] as TaskComment;
    expect(comment.replies?.map((reply) => reply.comment_id)).toEqual(['a', 'x', 'x1', 'x2', 'y']);
  });

  test('a list page is generic over its item, needs next_cursor, and may carry total', () => {
    const pageSchema = listPageSchema(taskSchema);
    const page = pageSchema.parse({
      data: [{ task_id: 'k1', title: 'x', status: 'blocked' }],
      next_cursor: 'abc',
      total: 7,
    });
    expect(page.data[0]?.task_id).toBe('k1');
    expect(pageSchema.parse({ data: [], next_cursor: null }).total).toBeUndefined();
    expect(pageSchema.safeParse({ data: [] }).error?.issues[0]?.path).toEqual(['next_cursor']);
    expect(
      pageSchema.safeParse({ data: [{ title: 'x', status: 'y' }], next_cursor: null }).error?.issues[0]?.path,
    ).toEqual(['data', 0, 'task_id']);
  });

  describe('a goal group without its project id', () => {
    const group = { data: [goal], next_cursor: 'more' };
    test.each([
      ['absent', group],
      ['null', { ...group, project_id: null }],
    ])('%s takes it from its goals, so the group can be continued', (_name, sent) => {
      const parsed = groupedGoalsSchema.parse({ projects: [sent] });
      expect(parsed.projects[0]).toMatchObject({ project_id: 'p1', next_cursor: 'more' });
    });

    test('with no goals and more to read is refused, naming it', () => {
      const result = groupedGoalsSchema.safeParse({ projects: [goalsGroup, { data: [], next_cursor: 'c' }] });
      expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['projects.1.project_id']);
    });

    test('with no goals and nothing more to read is left out', () => {
      const parsed = groupedGoalsSchema.parse({ projects: [goalsGroup, { data: [], next_cursor: null }] });
      expect(parsed.projects).toEqual([goalsGroup]);
    });
  });

  test('a problem under the former name has the same type name', () => {
    const problem = problemSchema.parse({
      type: 'urn:oldname:problem:precondition-failed',
      title: 'x',
      status: 412,
    });
    expect(problemTypeName(problem.type)).toBe('precondition-failed');
    expect(problemTypeName('about:blank')).toBeNull();
  });
});

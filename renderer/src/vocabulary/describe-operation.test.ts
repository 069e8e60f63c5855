import { describe, expect, test } from 'vitest';
import type { PendingChange, ServerAnswer } from '../../../ipc/outbox-schemas';
import { answerWords, carriedNames, describeOperation, valueText } from './describe-operation';

const TODAY = new Date('2026-03-10T12:00:00Z');

function change(overrides: Partial<PendingChange>): PendingChange {
  return {
    op_id: 'op-1',
    task_id: 'tsk_1',
    task_title: 'Fix login',
    kind: 'update',
    state: 'queued',
    changes: [],
    attempts: 0,
    created_at: '2026-03-10T11:00:00Z',
    updated_at: '2026-03-10T11:00:00Z',
    last_answer: null,
    waits_on: null,
    ...overrides,
  };
}

function answer(overrides: Partial<ServerAnswer>): ServerAnswer {
  return { status: null, type: null, detail: null, errors: [], ...overrides };
}

describe('a waiting change in words', () => {
  test.each([
    [
      'a status change',
      change({ changes: [{ field: 'status', before: 'in_progress', after: 'completed' }] }),
      'Status: In progress → Done on ‘Fix login’',
    ],
    [
      'several fields, cleared and set',
      change({
        changes: [
          { field: 'assignee', before: 'ada', after: null },
          { field: 'due_date', before: null, after: '2026-03-11' },
          { field: 'tags', before: ['a'], after: ['a', 'b'] },
        ],
      }),
      'Assignee: ada → —; Due: — → Tomorrow; Tags: a → a, b on ‘Fix login’',
    ],
    [
      'a long title, shortened',
      change({
        changes: [
          {
            field: 'title',
            before: 'Short',
            after: 'A very long title that goes on and on and on past the limit',
          },
        ],
      }),
      'Title: ‘Short’ → ‘A very long title that goes on and on and on pa…’ on ‘Fix login’',
    ],
    [
      'a new task with its fields',
      change({
        kind: 'create',
        task_title: 'Write notes',
        changes: [
          { field: 'title', before: null, after: 'Write notes' },
          { field: 'priority', before: null, after: 'high' },
        ],
      }),
      'New task ‘Write notes’ (Priority: High)',
    ],
    ['a delete', change({ kind: 'delete' }), 'Delete ‘Fix login’'],
    ['a task the mirror lost', change({ kind: 'delete', task_title: null }), 'Delete a task no longer here'],
    [
      'a new comment',
      change({
        entity_type: 'comment',
        kind: 'create',
        changes: [{ field: 'content', before: null, after: 'Looks good to me' }],
      }),
      'Comment on ‘Fix login’: ‘Looks good to me’',
    ],
    [
      'a reply',
      change({
        entity_type: 'comment',
        kind: 'create',
        changes: [
          { field: 'content', before: null, after: 'Done, see the PR' },
          { field: 'parent_comment_id', before: null, after: 'local-1' },
        ],
      }),
      'Reply on ‘Fix login’: ‘Done, see the PR’',
    ],
    [
      'an edited comment',
      change({
        entity_type: 'comment',
        changes: [{ field: 'content', before: 'Later', after: 'Next week' }],
      }),
      'Edit a comment on ‘Fix login’: ‘Later’ → ‘Next week’',
    ],
    [
      'a deleted comment',
      change({ entity_type: 'comment', kind: 'delete' }),
      'Delete a comment on ‘Fix login’',
    ],
    [
      'a renamed section',
      change({
        entity_type: 'section',
        entity_name: 'Later',
        changes: [{ field: 'name', before: 'Later', after: 'Next week' }],
      }),
      'Rename section ‘Later’ → ‘Next week’',
    ],
    [
      'a moved section',
      change({
        entity_type: 'section',
        entity_name: 'Later',
        changes: [{ field: 'position', before: 1, after: 5 }],
      }),
      'Move section ‘Later’',
    ],
    [
      'a new section',
      change({
        entity_type: 'section',
        kind: 'create',
        changes: [
          { field: 'name', before: null, after: 'Next week' },
          { field: 'scope_type', before: null, after: 'user' },
        ],
      }),
      'New section ‘Next week’',
    ],
    [
      'a deleted section',
      change({ entity_type: 'section', entity_name: 'Old', kind: 'delete' }),
      'Delete section ‘Old’',
    ],
    [
      'a completed sprint',
      change({
        entity_type: 'sprint',
        entity_name: 'Sprint 12',
        changes: [{ field: 'status', before: 'active', after: 'completed' }],
      }),
      'Complete sprint ‘Sprint 12’',
    ],
    [
      'a closed goal',
      change({
        entity_type: 'goal',
        entity_name: 'Launch',
        changes: [{ field: 'status', before: 'open', after: 'closed' }],
      }),
      'Close goal ‘Launch’',
    ],
    [
      'a renamed milestone whose name is not told otherwise',
      change({ entity_type: 'milestone', changes: [{ field: 'name', before: 'Beta', after: 'GA' }] }),
      'Rename milestone ‘Beta’ → ‘GA’',
    ],
    [
      'a reopened milestone given a due date',
      change({
        entity_type: 'milestone',
        entity_name: 'Beta',
        changes: [
          { field: 'status', before: 'completed', after: 'open' },
          { field: 'due_date', before: null, after: '2026-03-11' },
        ],
      }),
      'Reopen milestone ‘Beta’; Due: — → Tomorrow',
    ],
    [
      'a new sprint',
      change({
        entity_type: 'sprint',
        kind: 'create',
        changes: [
          { field: 'name', before: null, after: 'Sprint 13' },
          { field: 'start_date', before: null, after: '2026-03-16' },
        ],
      }),
      'New sprint ‘Sprint 13’',
    ],
    [
      'a deleted milestone',
      change({ entity_type: 'milestone', entity_name: 'Beta', kind: 'delete' }),
      'Delete milestone ‘Beta’',
    ],
  ])('%s', (_, pending, words) => {
    expect(describeOperation(pending, undefined, TODAY)).toBe(words);
  });

  test('ids are named when the workspace knows them, shown as they are otherwise', () => {
    const nameOf = (field: string, id: string) =>
      field === 'project_id' && id === 'prj_1' ? 'Website' : null;
    expect(valueText('project_id', 'prj_1', nameOf)).toBe('Website');
    expect(valueText('section_id', 'sec_9', nameOf)).toBe('sec_9');
  });
});

describe("the server's last answer in words", () => {
  test.each([
    [null, null],
    [
      answer({
        status: 422,
        type: 'validation',
        errors: [{ field: 'assignee', message: 'no active member is called bob' }],
      }),
      'Refused by the server (422): Assignee: no active member is called bob.',
    ],
    [
      answer({ status: 422, type: 'validation', detail: 'Body invalid' }),
      'Refused by the server (422): Body invalid.',
    ],
    [
      answer({ status: 403, type: 'test-token-read-only' }),
      'This account can only read (403): the change was not sent.',
    ],
    [
      answer({ status: 412, type: 'edited-remotely' }),
      'Someone changed this task on the server meanwhile (412).',
    ],
    [answer({ status: 404, type: 'about:blank' }), 'The task is gone from the server (404).'],
    [answer({ status: 403, type: 'about:blank' }), 'You can no longer change or see this task (403).'],
    [answer({ type: 'network' }), 'The server could not be reached; it will be sent again.'],
    [
      answer({ type: 'unsafe-id', detail: 'tasks.update: the id ".." cannot be sent in a request\'s path' }),
      'The server listed it under an id that would address something else in a request. Nothing was sent; discard the change.',
    ],
    [
      answer({ status: 503, type: 'internal' }),
      'The server could not take it now (503); it will be sent again.',
    ],
  ])('%j', (given, words) => {
    expect(answerWords(given)).toBe(words);
  });

  test('a refusal for want of a scope names the permission the sign-in lacks, when the account knows it', () => {
    const refused = answer({ status: 403, type: 'insufficient-scope' });
    expect(answerWords(refused, 'teams:write')).toBe(
      'Your sign-in does not allow this (403): it lacks teams:write; the change was not sent.',
    );
    expect(answerWords(refused)).toBe('Your sign-in does not allow this (403): the change was not sent.');
  });
});

describe('names a change carries (issue 13)', () => {
  test('a task’s sprint and goal are told by the names carried, an id none names as is', () => {
    const carried = change({
      changes: [
        { field: 'sprint_id', before: 'spr_1', after: 'local-2' },
        { field: 'goal_id', before: 'gol_9', after: null },
      ],
      names: { spr_1: 'Sprint 12', 'local-2': 'Sprint 13', gol_0: 'Unused' },
    });
    expect(describeOperation(carried, carriedNames(carried.names), TODAY)).toBe(
      'Sprint: Sprint 12 → Sprint 13; Goal: gol_9 → — on ‘Fix login’',
    );
  });

  test('a reply names the comment it answers', () => {
    const reply = change({
      entity_type: 'comment',
      entity_id: 'local-c2',
      kind: 'create',
      changes: [
        { field: 'content', before: null, after: 'The one from Monday' },
        { field: 'parent_comment_id', before: null, after: 'cmt_1' },
      ],
      names: { cmt_1: 'ana: ‘Which build broke it?’' },
    });
    expect(describeOperation(reply, carriedNames(reply.names), TODAY)).toBe(
      'Reply to ana: ‘Which build broke it?’ on ‘Fix login’: ‘The one from Monday’',
    );
    expect(describeOperation(reply, undefined, TODAY)).toBe('Reply on ‘Fix login’: ‘The one from Monday’');
  });
});

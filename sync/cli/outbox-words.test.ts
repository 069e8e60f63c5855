// The headless `outbox` says each operation's state in the app's words
// (protocol/change-state-words), naming the kind it changes (issue 21).
import { expect, test } from 'vitest';
import type { OutboxOp, OutboxState } from '../../db/outbox/outbox-types';
import { type ChangeState, changeStateWords } from '../../protocol/change-state-words';
import { outboxLine } from './mirror-commands';

function op(state: OutboxState, entityType: string): OutboxOp {
  return {
    seq: 1,
    opId: 'op_1',
    entityType,
    entityId: 'tsk_1',
    parentId: null,
    kind: 'update',
    patch: { title: 'New' },
    baseEtag: '"v1"',
    baseValues: { title: 'Old' },
    state,
    attempts: 0,
    lastProblem: null,
    createdAt: '2026-03-04T10:00:00Z',
    updatedAt: '2026-03-04T10:00:00Z',
  };
}

test.each<[ChangeState, string, string]>([
  ['queued', 'task', 'Not sent yet'],
  ['in_flight', 'task', 'Sending'],
  ['conflict', 'comment', 'Conflict'],
  ['failed', 'goal', 'Not saved'],
  ['blocked', 'milestone', 'Read-only'],
])('a %s operation on a %s is told "%s", as the app tells it', (state, entityType, label) => {
  const line = outboxLine(op(state, entityType));
  expect(line['state']).toBe(state);
  expect(line['state_words']).toEqual(changeStateWords(state, `${entityType}s`));
  expect(line['state_words']).toMatchObject({ label });
});

test('a blocked operation names what the account cannot change', () => {
  expect(outboxLine(op('blocked', 'milestone'))['state_words']).toEqual({
    label: 'Read-only',
    sentence: 'This account cannot change milestones; the change was not sent.',
  });
});

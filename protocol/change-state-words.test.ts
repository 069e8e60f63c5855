import { describe, expect, test } from 'vitest';
import {
  type ChangeStateName,
  changeCountWords,
  changeStateWords,
  countChanges,
  countGroupOf,
  waitingWords,
} from './change-state-words';

describe('each state of a waiting change has one label and one sentence', () => {
  test.each<[ChangeStateName, string, string]>([
    ['queued', 'Not sent yet', 'Saved here; sent when the server can be reached.'],
    ['pending', 'Not sent yet', 'Saved here; sent when the server can be reached.'],
    ['in_flight', 'Sending', 'Being sent to the server now.'],
    ['sending', 'Sending', 'Being sent to the server now.'],
    ['conflict', 'Conflict', 'Changed here and on the server; needs your choice in pending changes.'],
    [
      'failed',
      'Not saved',
      'The server refused this change; edit it and retry, or discard it, in pending changes.',
    ],
    ['blocked', 'Read-only', 'This account cannot change goals; the change was not sent.'],
  ])('%s: %s', (state, label, sentence) => {
    expect(changeStateWords(state, 'goals')).toEqual({ label, sentence });
  });

  test('a blocked change names the kind it is to, tasks unless told', () => {
    expect(changeStateWords('blocked').sentence).toBe(
      'This account cannot change tasks; the change was not sent.',
    );
  });
});

describe('a change held behind another that stopped says what it waits on', () => {
  test.each<[Parameters<typeof waitingWords>[0], string, string]>([
    [
      { entityType: 'sprint', name: 'Q3', kind: 'create', state: 'blocked' },
      'Waiting for sprint ‘Q3’',
      'Sent once sprint ‘Q3’ is created; that change is read-only: This account cannot change sprints; the change was not sent.',
    ],
    [
      { entityType: 'task', name: 'Plan', kind: 'create', state: 'failed' },
      'Waiting for task ‘Plan’',
      'Sent once task ‘Plan’ is created; that change is not saved: The server refused this change; edit it and retry, or discard it, in pending changes.',
    ],
    [
      { entityType: 'task', name: 'Plan', kind: 'update', state: 'conflict' },
      'Waiting for a change to task ‘Plan’',
      'Sent once the earlier change to task ‘Plan’ is sent; that change is in conflict: Changed here and on the server; needs your choice in pending changes.',
    ],
    [
      { entityType: 'milestone', name: null, kind: 'create', state: 'blocked' },
      'Waiting for a new milestone',
      'Sent once a new milestone is created; that change is read-only: This account cannot change milestones; the change was not sent.',
    ],
  ])('%o', (on, label, sentence) => {
    expect(waitingWords(on)).toEqual({ label, sentence });
  });

  test('it never says the change is sent when the server can be reached', () => {
    const words = waitingWords({ entityType: 'goal', name: 'Launch', kind: 'create', state: 'blocked' });
    expect(words.sentence).not.toContain(changeStateWords('queued').sentence);
    expect(words.label).not.toBe(changeStateWords('queued').label);
  });
});

describe('the tally', () => {
  test.each<[ChangeStateName, string]>([
    ['queued', 'pending'],
    ['in_flight', 'pending'],
    ['sending', 'pending'],
    ['pending', 'pending'],
    ['conflict', 'conflicts'],
    ['failed', 'failed'],
    ['blocked', 'blocked'],
  ])('%s is counted as %s', (state, group) => {
    expect(countGroupOf(state)).toBe(group);
  });

  test('counts a list of states, and states with their numbers, alike', () => {
    const listed = countChanges(['queued', 'sending', 'conflict', 'failed', 'blocked', 'blocked']);
    expect(listed).toEqual({ pending: 2, conflicts: 1, failed: 1, blocked: 2, unsettled: 6 });
    expect(
      countChanges([
        { state: 'queued', n: 1 },
        { state: 'in_flight', n: 1 },
        { state: 'conflict', n: 1 },
        { state: 'failed', n: 1 },
        { state: 'blocked', n: 2 },
      ]),
    ).toEqual(listed);
  });

  test.each<[string, ChangeStateName[], string, string[]]>([
    ['nothing waiting', [], 'All changes synced', []],
    ['one queued', ['queued'], '1 change waiting', ['1 not sent yet']],
    // The case: the headline counts every change the inspector lists, not only the queued.
    [
      'one queued and three refused',
      ['queued', 'failed', 'failed', 'failed'],
      '4 changes waiting',
      ['3 not saved', '1 not sent yet'],
    ],
    [
      'one of each',
      ['sending', 'conflict', 'failed', 'blocked'],
      '4 changes waiting',
      ['1 conflict', '1 not saved', '1 read-only', '1 not sent yet'],
    ],
    ['two conflicts', ['conflict', 'conflict'], '2 changes waiting', ['2 conflicts']],
  ])('in words, %s', (_, states, headline, parts) => {
    const words = changeCountWords(countChanges(states));
    expect(words.headline).toBe(headline);
    expect(words.parts.map((p) => p.text)).toEqual(parts);
    expect(words.parts.reduce((n, p) => n + p.count, 0)).toBe(states.length);
  });

  test("a group's words in the tally are its state's label", () => {
    const words = changeCountWords(countChanges(['queued', 'conflict', 'failed', 'blocked']));
    expect(words.parts.map((p) => [p.group, p.state])).toEqual([
      ['conflicts', 'conflict'],
      ['failed', 'failed'],
      ['blocked', 'blocked'],
      ['pending', 'queued'],
    ]);
    for (const part of words.parts) {
      expect(part.text.toLowerCase()).toContain(changeStateWords(part.state).label.toLowerCase());
    }
  });
});

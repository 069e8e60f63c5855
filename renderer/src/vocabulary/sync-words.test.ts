import { describe, expect, test } from 'vitest';
import type { SyncProblem, UnsyncedCollection } from '../../../ipc/screen-schemas';
import { problemWords, unsyncedWords } from './sync-words';

const unsynced = (fields: Partial<UnsyncedCollection>): UnsyncedCollection => ({
  collection: 'sections',
  scope: '',
  skipped_because: null,
  kind: 'problem',
  type: 'internal',
  status: 500,
  message: 'sections.list: 500 internal',
  ...fields,
});

describe('what the screens say about a collection the last sync could not sync', () => {
  test.each([
    [unsynced({}), 'Sections could not be synced: the server failed (error 500)'],
    [
      unsynced({ kind: 'network', type: null, status: null }),
      'Sections could not be synced: the server could not be reached',
    ],
    [
      unsynced({ collection: 'tasks', kind: 'cursor-refused', type: 'invalid-parameter', status: 400 }),
      'Tasks could not be synced: the server kept restarting the list',
    ],
    [
      unsynced({ collection: 'tasks', kind: 'invalid-response', type: null, status: 200 }),
      "Tasks could not be synced: the server's answer was not understood",
    ],
    [
      unsynced({ collection: 'sprints', scope: 'tm_1' }),
      'Sprints of team tm_1 could not be synced: the server failed (error 500)',
    ],
    [
      unsynced({ collection: 'milestones', scope: 'prj_1' }),
      'Milestones of project prj_1 could not be synced: the server failed (error 500)',
    ],
    [
      unsynced({ collection: 'sprints', skipped_because: 'teams' }),
      'Sprints could not be synced: Teams could not be synced first',
    ],
  ])('case %#', (failure, words) => {
    expect(unsyncedWords(failure)).toBe(words);
  });
});

describe('why sync is not going, in a few words', () => {
  const problem = (fields: Partial<SyncProblem>): SyncProblem => ({
    kind: 'network',
    type: null,
    message: 'tasks.list: network error',
    retry_at: null,
    ...fields,
  });

  test.each([
    [problem({}), 'server unreachable'],
    [problem({ type: 'auth-server-unavailable' }), 'sign-in server unreachable'],
    [problem({ kind: 'problem', type: 'rate-limit' }), 'rate-limited'],
  ])('%o reads %s', (given, words) => {
    expect(problemWords(given, false)).toBe(words);
  });
});

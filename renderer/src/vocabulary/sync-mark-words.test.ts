import { expect, test } from 'vitest';
import { markOfState, markWords } from './sync-mark-words';

test('a waiting change reads as not sent yet until it is sent; a refused one keeps its mark', () => {
  expect(
    [undefined, null, 'done', 'queued', 'in_flight', 'conflict', 'failed', 'blocked'].map((s) =>
      markOfState(s),
    ),
  ).toEqual([null, null, null, 'pending', 'pending', 'conflict', 'failed', 'blocked']);
});

// The words are protocol/change-state-words' (issue 21); a state of the outbox keeps its own.
test.each([
  ['queued', 'Not sent yet', 'Saved here; sent when the server can be reached.'],
  ['in_flight', 'Sending', 'Being sent to the server now.'],
  ['pending', 'Not sent yet', 'Saved here; sent when the server can be reached.'],
  [
    'failed',
    'Not saved',
    'The server refused this change; edit it and retry, or discard it, in pending changes.',
  ],
  ['conflict', 'Conflict', 'Changed here and on the server; needs your choice in pending changes.'],
  ['blocked', 'Read-only', 'This account cannot change goals; the change was not sent.'],
])('%s: %s', (state, label, hint) => {
  expect(markWords(state, 'goals')).toMatchObject({ label, hint });
});

// The change feed as the person's inbox, on a real mirror file: one entry per
// change however often it is met (also across a reopen of the file), read and
// unread, and nothing kept past INBOX_DAYS.
import { expect, test } from 'vitest';
import { openTestMirrorPerTest, type TestMirror } from '../test-mirror';
import type { NewNotification } from './change-feed';

let handle: TestMirror;
openTestMirrorPerTest((opened) => (handle = opened));

const assigned = (taskId: string, key: string | undefined, createdAt?: string): NewNotification => ({
  kind: 'task-assigned',
  entityType: 'task',
  entityId: taskId,
  forUser: 'ada',
  summary: { title: `Task ${taskId}`, by: 'grace' },
  ...(key === undefined ? {} : { key }),
  ...(createdAt === undefined ? {} : { createdAt }),
});

test('a change met again, in the same poll, a later one or after a reopen of the file, is added once', async () => {
  const first = handle.mirror.feed.add([
    assigned('tsk_1', 'task-assigned:tsk_1:v2'),
    assigned('tsk_2', 'k2'),
  ]);
  expect(first).toHaveLength(2);
  // The same change twice in one batch and again in the next poll.
  expect(handle.mirror.feed.add([assigned('tsk_1', 'task-assigned:tsk_1:v2')])).toEqual([]);
  handle.mirror.feed.markSeen([first[0] ?? 0]);
  const reopened = await handle.reopen();
  expect(reopened.feed.add([assigned('tsk_1', 'task-assigned:tsk_1:v2'), assigned('tsk_2', 'k2')])).toEqual(
    [],
  );
  // A later change of the same task is news of its own.
  expect(reopened.feed.add([assigned('tsk_1', 'task-assigned:tsk_1:v3')])).toHaveLength(1);
  expect(reopened.feed.list('ada').map((n) => [n.entityId, n.seenAt === null])).toEqual([
    ['tsk_1', true],
    ['tsk_2', true],
    ['tsk_1', false],
  ]);
  expect(reopened.feed.unseenCount('ada')).toBe(2);
});

test('the same change is an entry for each person it concerns', () => {
  handle.mirror.feed.add([assigned('tsk_1', 'k'), { ...assigned('tsk_1', 'k'), forUser: 'bob' }]);
  expect(handle.mirror.feed.list('ada')).toHaveLength(1);
  expect(handle.mirror.feed.list('bob')).toHaveLength(1);
});

test('mark all read marks only that person’s unread entries', () => {
  handle.mirror.feed.add([
    assigned('tsk_1', 'a'),
    assigned('tsk_2', 'b'),
    { ...assigned('tsk_3', 'c'), forUser: 'bob' },
  ]);
  expect(handle.mirror.feed.markAllSeen('ada')).toBe(2);
  expect(handle.mirror.feed.unseenCount('ada')).toBe(0);
  expect(handle.mirror.feed.unseenCount('bob')).toBe(1);
  expect(handle.mirror.feed.markAllSeen('ada')).toBe(0);
});

test('entries older than 90 days are pruned when new ones arrive', () => {
  // The test clock reads 2026-03-10: 100 days before is past the bound, 80 days before within it.
  handle.mirror.feed.add([
    assigned('tsk_old', 'old', '2025-11-30T12:00:00.000Z'),
    assigned('tsk_recent', 'recent', '2025-12-20T12:00:00.000Z'),
  ]);
  expect(handle.mirror.feed.list('ada').map((n) => n.entityId)).toEqual(['tsk_recent']);
  handle.mirror.feed.add([assigned('tsk_new', 'new')]);
  expect(handle.mirror.feed.list('ada').map((n) => n.entityId)).toEqual(['tsk_new', 'tsk_recent']);
});

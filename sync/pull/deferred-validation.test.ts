import { expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { openTestMirrorPerTest, taskJson } from '../../db/test-mirror';
import { taskOperations } from '../api/operations';
import { checkedItems } from './deferred-validation';
import { MirrorPullStore } from './mirror-pull-store';

let mirror: Mirror;
openTestMirrorPerTest((opened) => {
  mirror = opened.mirror;
});

test('a task page’s items reach the mirror as parsed, not walked by the schema again: its row check refuses a malformed one alone, naming the field (issue 28)', async () => {
  const good = taskJson({ title: 'Good' });
  const bad = taskJson({ title: 'Bad', status: 3 });
  const items: unknown[] = [good, bad, 7];

  const checked = checkedItems(taskOperations.list.name, items, null);
  // The very objects parsed, not a schema's copies: the row check that writes them is the one check.
  expect(checked.items[0]).toBe(good);
  expect(checked.items[1]).toBe(bad);
  expect(checked.skipped).toEqual([{ item: 7, field: '(row)', reason: 'expected an object' }]);

  const outcome = await new MirrorPullStore(mirror).applyPage('tasks', 'hot:assigned', true, {
    pageIndex: 0,
    cursorSent: null,
    etag: null,
    nextCursor: null,
    items: items as Record<string, unknown>[],
    announce: true,
    uncheckedFrom: taskOperations.list.name,
  });
  expect(outcome.rejected.map((r) => [r.id, r.field])).toEqual([
    [bad.task_id, 'status'],
    [null, '(row)'],
  ]);
  expect(mirror.tasks.get(good.task_id as string)?.task.title).toBe('Good');
  expect(mirror.tasks.get(bad.task_id as string)).toBeNull();
});

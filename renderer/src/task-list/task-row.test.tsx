// @vitest-environment happy-dom
// A row's slot takes another task on every keystroke's answer and every scroll:
// its cells are then changed in place, not rebuilt, whatever the tasks hold.
import { render } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { PlainRow } from '../testing/plain-row';
import { taskRow } from '../testing/screen-fixtures';

fakeBridgeEachTest();

const row = (task: TaskRow) => <PlainRow row={task} />;

const cellText = (container: HTMLElement, cell: string) =>
  container.querySelector(`.cell-${cell}`)?.textContent;

test('a row slot that takes another task changes its cells in place instead of rebuilding them', () => {
  const held = taskRow({
    task_id: 't-1',
    title: 'Held',
    assignee: 'ada',
    due_date: '2026-12-10',
    tags: ['api', 'ux', 'db'],
  });
  // Each cell the other way round: nobody assigned, no due date, other tags.
  const next = taskRow({
    task_id: 't-2',
    title: 'Next',
    assignee: null,
    due_date: null,
    tags: ['ops', 'qa'],
  });
  const { container, rerender } = render(row(held));
  const before = [...container.querySelectorAll('*')];

  rerender(row(next));

  expect(cellText(container, 'title')).toBe('Next');
  expect(cellText(container, 'assignee')).toBe('Unassigned');
  expect(cellText(container, 'due')).toBe('—');
  expect(cellText(container, 'tags')).toBe('opsqa');
  // The same elements, in the same order, less the "+1" of the first task's third tag.
  const after = [...container.querySelectorAll('*')];
  expect(after).toHaveLength(before.length - 1);
  expect(after.filter((element, place) => element !== before[place])).toEqual([]);

  rerender(row(held));
  expect(cellText(container, 'assignee')).toBe('ada');
  expect(cellText(container, 'tags')).toBe('apiux+1');
  const again = [...container.querySelectorAll('*')];
  expect(again.slice(0, after.length).filter((element, place) => element !== after[place])).toEqual([]);
});

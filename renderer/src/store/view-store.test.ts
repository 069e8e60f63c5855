import { beforeEach, describe, expect, test } from 'vitest';
import { followViewRemap, navigate, openTask, useView } from './view-store';

describe('the open task and the screens', () => {
  beforeEach(() => {
    navigate({ kind: 'list', scope: { kind: 'all' } });
    openTask('t1');
  });

  test.each([
    ['another list', { kind: 'list', scope: { kind: 'my-tasks' } }],
    ['the goals', { kind: 'goals', goalId: null }],
    ['a board', { kind: 'board', scopeType: 'project', scopeId: 'p1' }],
    ['the sync screen', { kind: 'sync', tab: 'status' }],
  ] as const)('closes when the person goes to %s', (_where, view) => {
    navigate(view);
    expect(useView.getState().openTaskId).toBeNull();
  });

  test('stays open when the same screen is chosen again', () => {
    navigate({ kind: 'list', scope: { kind: 'all' } });
    expect(useView.getState().openTaskId).toBe('t1');
  });

  test('stays open while a goal is chosen on the goals screen', () => {
    navigate({ kind: 'goals', goalId: null });
    openTask('t2');
    navigate({ kind: 'goals', goalId: 'g1' });
    expect(useView.getState().openTaskId).toBe('t2');
  });

  test('stays open when the screen follows the id the server gave its sprint', () => {
    navigate({ kind: 'sprint', sprintId: 'local-s1' });
    openTask('t3');
    followViewRemap({ kind: 'sprint', sprintId: 's1' });
    expect(useView.getState()).toMatchObject({ view: { kind: 'sprint', sprintId: 's1' }, openTaskId: 't3' });
  });
});

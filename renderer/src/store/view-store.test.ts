import { beforeEach, describe, expect, test } from 'vitest';
import { followRemapsOfView, followViewRemap, navigate, openTask, useView } from './view-store';

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

describe('the view on show follows the ids the server gives what was created here', () => {
  test.each([
    ['a saved view', { kind: 'saved-view', viewId: 'local-v1' }, { kind: 'saved-view', viewId: 'v1' }],
    ['a sprint', { kind: 'sprint', sprintId: 'local-v1' }, { kind: 'sprint', sprintId: 'v1' }],
    ['a goal', { kind: 'goals', goalId: 'local-v1' }, { kind: 'goals', goalId: 'v1' }],
  ] as const)('%s, whether or not its screen has drawn yet', (_, shown, followed) => {
    navigate(shown);
    openTask('t3');
    followRemapsOfView([{ from: 'other', to: 'x' }]);
    expect(useView.getState().view).toEqual(shown);
    followRemapsOfView([{ from: 'local-v1', to: 'v1' }]);
    expect(useView.getState()).toMatchObject({ view: followed, openTaskId: 't3' });
  });

  test('another screen is left as it is', () => {
    navigate({ kind: 'inbox' });
    followRemapsOfView([{ from: 'local-v1', to: 'v1' }]);
    expect(useView.getState().view).toEqual({ kind: 'inbox' });
  });
});

describe('a task created here opens under the id the server gave it', () => {
  test('when its push was answered before the page opened it (the id replaced first)', () => {
    followRemapsOfView([{ from: 'local-t1', to: 'tsk_1' }]);
    openTask('local-t1');
    expect(useView.getState().openTaskId).toBe('tsk_1');
  });

  test('when its push is answered after it opened, before the editor listens', () => {
    openTask('local-t2');
    followRemapsOfView([{ from: 'local-t2', to: 'tsk_2' }]);
    expect(useView.getState().openTaskId).toBe('tsk_2');
    // Any other task opens as it is.
    openTask('tsk_7');
    expect(useView.getState().openTaskId).toBe('tsk_7');
  });
});

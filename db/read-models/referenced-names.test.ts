// The one place that names what a field's id points at: stored resources by
// their names, queued ones by their waiting create, a rename waiting applied,
// one whose delete waits marked "(deleted)", a parent task by its title, a
// reply's parent by its author and first words, and nothing for an unknown id.
import { afterEach, expect, test } from 'vitest';
import { namesIn, referenceNames } from './referenced-names';
import { loadPass, loadTasks, openTestMirror, type TestMirror, taskJson } from '../test-mirror';

let handle: TestMirror | null = null;
afterEach(() => {
  handle?.cleanup();
  handle = null;
});

test('names stored, queued, renamed and deleted resources, a parent task and a reply’s parent; an unknown id is not named', async () => {
  handle = await openTestMirror();
  const { mirror } = handle;
  loadPass(mirror, 'projects', [{ project_id: 'prj_a', org_id: 'org_test', name: 'Apollo' }], {
    scope: 'org_test',
    etag: '"projects"',
  });
  loadPass(mirror, 'teams', [{ team_id: 'tm_1', org_id: 'org_test', name: 'Platform' }], {
    scope: 'org_test',
    etag: '"teams"',
  });
  loadPass(
    mirror,
    'goals',
    [
      { goal_id: 'gol_1', project_id: 'prj_a', name: 'Launch', status: 'open' },
      { goal_id: 'gol_2', project_id: 'prj_a', name: 'Old name', status: 'open' },
      { goal_id: 'gol_3', project_id: 'prj_a', name: 'Dropped', status: 'open' },
    ],
    { scope: 'prj_a', etag: '"goals"' },
  );
  const parent = taskJson({ title: 'Ship the login page' });
  loadTasks(mirror, [parent]);
  const queued = mirror.goals.create({ name: 'Still waiting' }, 'prj_a');
  mirror.goals.edit('gol_2', { name: 'New name' });
  mirror.goals.delete('gol_3');
  const taskId = String(parent.task_id);
  const question = mirror.comments.create({ taskId, content: 'Which   build\nbroke it?' });

  const names = referenceNames(mirror);
  expect(names('project_id', 'prj_a')).toBe('Apollo');
  expect(names('team_id', 'tm_1')).toBe('Platform');
  expect(names('goal_id', 'gol_1')).toBe('Launch');
  expect(names('goal_id', queued.id)).toBe('Still waiting');
  expect(names('goal_id', 'gol_2')).toBe('New name');
  expect(names('goal_id', 'gol_3')).toBe('Dropped (deleted)');
  expect(names('goal_id', 'gol_nope')).toBeNull();
  expect(names('parent_task_id', taskId)).toBe('‘Ship the login page’');
  expect(names('parent_comment_id', question.commentId, taskId)).toBe('‘Which build broke it?’');
  expect(names('title', 'gol_1')).toBeNull();

  expect(
    namesIn(
      [
        { field: 'goal_id', values: ['gol_1', 'gol_nope', null] },
        { field: 'project_id', values: ['prj_a'] },
      ],
      names,
    ),
  ).toEqual({ gol_1: 'Launch', prj_a: 'Apollo' });
  expect(namesIn([{ field: 'title', values: ['Launch'] }], names)).toBeUndefined();
});

// @vitest-environment happy-dom
// Triage as a person does it from the keyboard: J/K move the active task, 2
// declines it, 3 asks for the original by title and declines it with a comment
// naming that task, 1 opens the accept form, which starts from the task's own
// values, offers the chosen project's sections and sends what changed with
// review=accepted. Each is an edit (and a comment) asked of main, which queues it.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, test } from 'vitest';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { project, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { openTask, useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { TriageView } from './triage-view';

const bridge = fakeBridgeEachTest();

const waiting: TaskRow[] = [];
const elsewhere = [taskRow({ task_id: 't-log', title: 'Login fails on Safari' })];

beforeEach(async () => {
  waiting.splice(
    0,
    waiting.length,
    taskRow({
      task_id: 't-1',
      title: 'Crash on save',
      team_id: 'team-1',
      review: 'pending',
      project_id: 'p-web',
    }),
    taskRow({ task_id: 't-2', title: 'Safari login broken', team_id: 'team-1', review: 'pending' }),
    taskRow({
      task_id: 't-3',
      title: 'Dark mode',
      team_id: 'team-1',
      review: 'pending',
      sync_mark: 'pending',
    }),
  );
  bridge.answer('workspace:get', () =>
    workspaceOf({
      teams: [{ team_id: 'team-1', name: 'Platform', sprints: [] }],
      projects: [project('p-web', 'Web'), project('p-api', 'API')],
      sections: [
        {
          section_id: 's-web',
          name: 'Web inbox',
          scope_type: 'project',
          scope_id: 'p-web',
          position: 1,
          task_count: 0,
        },
        {
          section_id: 's-api',
          name: 'API backlog',
          scope_type: 'project',
          scope_id: 'p-api',
          position: 1,
          task_count: 0,
        },
        {
          section_id: 's-team',
          name: 'Team board',
          scope_type: 'team',
          scope_id: 'team-1',
          position: 1,
          task_count: 0,
        },
      ],
      members: [
        { user_id: 'u-ada', username: 'ada', active: true, role: 'member' },
        { user_id: 'u-bob', username: 'bob', active: true, role: 'member' },
      ],
    }),
  );
  // The mirror: the intake is what is still pending; a title search looks at every task.
  bridge.answer('tasks:query', ({ query }) => {
    const search = query.filter.search?.toLowerCase();
    const rows =
      search === undefined
        ? waiting.filter((row) => row.review === 'pending')
        : [...waiting, ...elsewhere].filter((row) => row.title.toLowerCase().includes(search));
    return { rows, next: null, skipped: [] };
  });
  bridge.answer('task:edit', ({ task_id, patch }) => {
    const row = waiting.find((r) => r.task_id === task_id);
    if (row && patch.review !== undefined) row.review = patch.review;
    return taskDetail({ task_id });
  });
  bridge.answer('comment:create', () => ({ comment_id: 'local-c1', op_id: 'op-c1' }));
  bridge.answer('outbox:list', () => ({ changes: [] }));
  await loadWorkspace();
});

async function showTriage() {
  render(<TriageView teamId="team-1" />);
  const list = await screen.findByRole('listbox', { name: 'Waiting for triage in Platform' });
  await within(list).findByText('Crash on save');
  return list;
}

/** The choices a select offers, by their text. */
function optionTexts(select: HTMLElement): (string | null)[] {
  return within(select)
    .getAllByRole('option')
    .map((o) => o.textContent);
}

function activeTitle(list: HTMLElement): string | null {
  return (
    within(list)
      .getAllByRole('option')
      .find((option) => option.getAttribute('aria-selected') === 'true')
      ?.querySelector('.title-text')?.textContent ?? null
  );
}

describe('TriageView', () => {
  test('lists the team’s pending tasks from the mirror, with their marks, and takes the focus', async () => {
    const list = await showTriage();
    expect(bridge.callsOf('tasks:query')[0]?.query.filter).toEqual({ team: ['team-1'], review: ['pending'] });
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.querySelector('.title-text')?.textContent),
    ).toEqual(['Crash on save', 'Safari login broken', 'Dark mode']);
    expect(list.querySelector('[data-task-id="t-3"] [data-sync-mark="pending"]')).not.toBeNull();
    expect(document.activeElement).toBe(list);
    expect(screen.getByTestId('triage-count').textContent).toBe('3 waiting');
  });

  test('J and K move; 2 declines the active task and the next one becomes active', async () => {
    const user = userEvent.setup();
    const list = await showTriage();
    expect(activeTitle(list)).toBe('Crash on save');
    await user.keyboard('jjk');
    expect(activeTitle(list)).toBe('Safari login broken');
    await user.keyboard('2');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-2', patch: { review: 'rejected' } }]);
    await waitFor(() => expect(within(list).queryByText('Safari login broken')).toBeNull());
    expect(activeTitle(list)).toBe('Dark mode');
  });

  test('3 asks for the original by title; Enter declines the task and comments the original’s name', async () => {
    const user = userEvent.setup();
    const list = await showTriage();
    await user.keyboard('j3');
    const dialog = await screen.findByRole('dialog', { name: 'Duplicate of… (Safari login broken)' });
    await user.type(within(dialog).getByLabelText('Original task'), 'login');
    // The task itself is no original of its own.
    await within(dialog).findByRole('option', { name: /Login fails on Safari/ });
    expect(within(dialog).getAllByRole('option')).toHaveLength(1);
    await user.keyboard('{Enter}');

    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-2', patch: { review: 'rejected' } }]);
    expect(bridge.callsOf('comment:create')).toEqual([
      { task_id: 't-2', content: 'Duplicate of “Login fails on Safari” (t-log).' },
    ]);
    await waitFor(() => expect(within(list).queryByText('Safari login broken')).toBeNull());
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('1 opens the accept form from the task’s values; it sends the changed choices with review=accepted', async () => {
    const user = userEvent.setup();
    await showTriage();
    await user.keyboard('1');
    const form = await screen.findByRole('dialog', { name: 'Accept Crash on save' });
    const projectSelect = within(form).getByLabelText<HTMLSelectElement>('Project');
    const section = within(form).getByLabelText<HTMLSelectElement>('Section');
    expect(projectSelect.value).toBe('p-web');
    expect(optionTexts(section)).toEqual(['No section', 'Web inbox', 'Team board']);
    await user.selectOptions(section, 's-web');
    // Another project: its sections, and the one chosen in the first is none again.
    await user.selectOptions(projectSelect, 'p-api');
    expect(section.value).toBe('');
    expect(optionTexts(section)).toEqual(['No section', 'API backlog', 'Team board']);
    await user.selectOptions(section, 's-api');
    await user.selectOptions(within(form).getByLabelText('Assignee'), 'bob');
    await user.selectOptions(within(form).getByLabelText('Priority'), 'urgent');
    // From the keyboard, in the field last changed.
    await user.keyboard('{Control>}{Enter}{/Control}');

    expect(bridge.callsOf('task:edit')).toEqual([
      {
        task_id: 't-1',
        patch: {
          review: 'accepted',
          project_id: 'p-api',
          section_id: 's-api',
          assignee: 'bob',
          priority: 'urgent',
        },
      },
    ]);
    await waitFor(() => expect(screen.queryByText('Crash on save')).toBeNull());
  });

  test('Enter opens the active task; when the editor closes, the keys work on the intake again', async () => {
    const user = userEvent.setup();
    const list = await showTriage();
    await user.keyboard('j{Enter}');
    expect(useView.getState().openTaskId).toBe('t-2');
    // The editor had the focus; closing it leaves none.
    act(() => {
      list.blur();
      openTask(null);
    });
    expect(document.activeElement).toBe(list);
    await user.keyboard('2');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-2', patch: { review: 'rejected' } }]);
  });

  test('accepting as it is sends review=accepted alone; Cancel leaves the task pending', async () => {
    const user = userEvent.setup();
    const list = await showTriage();
    await user.keyboard('1');
    // Escape is the platform's cancel of a <dialog>, driven in Chromium (happy-dom has none).
    const form = await screen.findByRole('dialog', { name: 'Accept Crash on save' });
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.callsOf('task:edit')).toEqual([]);
    await act(async () => {
      list.focus();
      await user.keyboard('1');
    });
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Accept Crash on save' })).getByRole('button', {
        name: 'Accept',
      }),
    );
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { review: 'accepted' } }]);
  });
});

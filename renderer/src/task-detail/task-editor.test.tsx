// @vitest-environment happy-dom
// The task editor's fields as a person edits them: a text saved on leaving it
// or on Enter (trimmed, a required title never emptied, Escape dropping the
// typing), a choice saved on change, and the Sprint, Goal and Milestone
// choices offering what the task's team or project holds, tags added and taken
// off as chips; each edit sent to main as the one field changed (tags as the
// whole list, a merge-patch replacing arrays), the field then marked not sent yet.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { TaskDetail } from '../../../ipc/screen-schemas';
import type { Task } from '../../../protocol/task';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import {
  account,
  goalSummary,
  milestone,
  project,
  sprintSummary,
  taskDetail,
  workspaceOf,
} from '../testing/screen-fixtures';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { CompletionQuestion } from '../ui/completion-question';
import { TaskEditor } from './task-editor';

const bridge = fakeBridgeEachTest();

/** Main holding one task: an edit applies at once and the field waits to be sent. */
async function openEditor(task: Partial<Task> = {}, family: Partial<TaskDetail['family']> = {}) {
  let detail: TaskDetail = taskDetail(
    {
      task_id: 't-1',
      title: 'Fix the footer',
      project_id: 'p-web',
      team_id: 'team-1',
      ...task,
    },
    family,
  );
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website', { team_id: 'team-1' }), project('p-app', 'App')],
      teams: [
        {
          team_id: 'team-1',
          name: 'Platform',
          sprints: [
            sprintSummary({ sprint_id: 'sp-11', name: 'Sprint 11', status: 'completed' }),
            sprintSummary({ sprint_id: 'sp-12', name: 'Sprint 12', current: true }),
          ],
        },
        {
          team_id: 'team-2',
          name: 'Apps',
          sprints: [sprintSummary({ sprint_id: 'sp-x', name: 'Apps sprint' })],
        },
      ],
      goals: [goalSummary('g-web', 'p-web', 'Faster pages'), goalSummary('g-app', 'p-app', 'App store')],
      tags: ['bug', 'ux', 'perf'],
    }),
  );
  bridge.answer('task:get', () => detail);
  bridge.answer('task:activity', () => ({ comments: [], history: [], cached: true }));
  bridge.answer('milestones:list', ({ project_id }) =>
    project_id === 'p-web'
      ? [milestone('m-beta', 'Beta'), milestone('m-alpha', 'Alpha', { status: 'completed' })]
      : [],
  );
  bridge.answer('task:edit', ({ patch }) => {
    detail = {
      ...detail,
      task: { ...detail.task, ...(patch as Partial<Task>) },
      sync_mark: 'pending',
      pending_fields: Object.keys(patch),
    };
    return detail;
  });
  await act(() => loadWorkspace());
  render(
    <>
      <TaskEditor taskId="t-1" />
      <CompletionQuestion />
    </>,
  );
  await screen.findByLabelText('Title');
}

function optionsOf(label: string): string[] {
  return within(screen.getByLabelText(label))
    .getAllByRole('option')
    .map((option) => option.textContent ?? '');
}

describe('TaskEditor, text fields', () => {
  test('the title is saved, trimmed, when the person leaves it, and marked as not sent yet', async () => {
    const user = userEvent.setup();
    await openEditor();
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    await user.clear(title);
    await user.type(title, '  Fix the footer links ');
    expect(bridge.callsOf('task:edit')).toEqual([]);
    await user.tab();

    expect(bridge.callsOf('task:edit')).toEqual([
      { task_id: 't-1', patch: { title: 'Fix the footer links' } },
    ]);
    expect(screen.getByLabelText('TitleNot sent yet')).toBe(title);
  });

  test('Enter saves the title; an emptied title is put back and not sent', async () => {
    const user = userEvent.setup();
    await openEditor();
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    await user.clear(title);
    await user.keyboard('{Enter}');
    expect(title.value).toBe('Fix the footer');
    await user.type(title, '!{Enter}');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { title: 'Fix the footer!' } }]);
  });

  test('Escape drops what was typed, and leaving the field then sends nothing', async () => {
    const user = userEvent.setup();
    await openEditor();
    const title = screen.getByLabelText<HTMLInputElement>('Title');
    await user.type(title, ' (draft)');
    await user.keyboard('{Escape}');
    expect(title.value).toBe('Fix the footer');
    await user.tab();
    expect(bridge.callsOf('task:edit')).toEqual([]);
  });
});

describe('TaskEditor, choices', () => {
  test('a status chosen is sent at once', async () => {
    const user = userEvent.setup();
    await openEditor();
    await user.selectOptions(screen.getByLabelText('Status'), 'in_progress');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { status: 'in_progress' } }]);
  });

  test("the Sprint choice offers the task's team's sprints, saying which is current or completed", async () => {
    const user = userEvent.setup();
    await openEditor();
    expect(optionsOf('Sprint')).toEqual(['No sprint', 'Sprint 11 (completed)', 'Sprint 12 (current)']);
    await user.selectOptions(screen.getByLabelText('Sprint'), 'sp-12');
    // Once chosen, the field's label also says its change is not sent yet.
    expect(screen.getByLabelText('SprintNot sent yet')).toBe(screen.getByLabelText(/^Sprint/));
    await user.selectOptions(screen.getByLabelText(/^Sprint/), 'No sprint');
    expect(bridge.callsOf('task:edit')).toEqual([
      { task_id: 't-1', patch: { sprint_id: 'sp-12' } },
      { task_id: 't-1', patch: { sprint_id: null } },
    ]);
  });

  test("the Goal choice offers the task's project's goals only", async () => {
    const user = userEvent.setup();
    await openEditor();
    expect(optionsOf('Goal')).toEqual(['No goal', 'Faster pages']);
    await user.selectOptions(screen.getByLabelText('Goal'), 'Faster pages');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { goal_id: 'g-web' } }]);
  });

  test("a goal of another project stays shown as the task's value, never silently changed", async () => {
    await openEditor({ goal_id: 'g-app' });
    const choice = screen.getByLabelText<HTMLSelectElement>('Goal');
    expect(choice.value).toBe('g-app');
    expect(optionsOf('Goal')).toEqual(['No goal', 'App store', 'Faster pages']);
  });

  test('without a project there is no goal or milestone to choose, and the choices say why', async () => {
    await openEditor({ project_id: null });
    const goalChoice = screen.getByLabelText<HTMLSelectElement>('Goal');
    const milestoneChoice = screen.getByLabelText<HTMLSelectElement>('Milestone');
    expect(goalChoice.disabled).toBe(true);
    expect(goalChoice.title).toBe('Goals belong to a project: choose the project first');
    expect(milestoneChoice.disabled).toBe(true);
    expect(bridge.callsOf('milestones:list')).toEqual([]);
  });

  test("the Milestone choice offers the project's milestones as main lists them", async () => {
    const user = userEvent.setup();
    await openEditor();
    await screen.findByRole('option', { name: 'Beta' });
    expect(bridge.callsOf('milestones:list')).toEqual([{ project_id: 'p-web' }]);
    expect(optionsOf('Milestone')).toEqual(['No milestone', 'Beta', 'Alpha (completed)']);
    await user.selectOptions(screen.getByLabelText('Milestone'), 'Beta');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { milestone_id: 'm-beta' } }]);
  });
});

describe('TaskEditor, tags', () => {
  test('a tag typed is added on Enter or comma, the whole list sent, a tag it has already not twice', async () => {
    const user = userEvent.setup();
    await openEditor({ tags: ['bug'] });
    const input = screen.getByPlaceholderText('Add a tag');
    await user.type(input, ' ux ,');
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { tags: ['bug', 'ux'] } }]);
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem')).toHaveLength(2);
    await user.type(input, 'bug{Enter}');
    expect(bridge.callsOf('task:edit')).toHaveLength(1);
  });

  test("a chip's × takes its tag off; Backspace in the empty field takes the last", async () => {
    const user = userEvent.setup();
    await openEditor({ tags: ['bug', 'ux', 'perf'] });
    await user.click(screen.getByRole('button', { name: 'Remove tag ux' }));
    expect(bridge.callsOf('task:edit').at(-1)).toEqual({ task_id: 't-1', patch: { tags: ['bug', 'perf'] } });
    await user.click(screen.getByPlaceholderText('Add a tag'));
    await user.keyboard('{Backspace}');
    expect(bridge.callsOf('task:edit').at(-1)).toEqual({ task_id: 't-1', patch: { tags: ['bug'] } });
  });

  test('the tags in use are suggested, but not those the task has', async () => {
    await openEditor({ tags: ['ux'] });
    const list = screen.getByPlaceholderText('Add a tag').getAttribute('list') ?? '';
    const suggested = [...(document.getElementById(list)?.querySelectorAll('option') ?? [])].map(
      (option) => option.value,
    );
    expect(suggested).toEqual(['bug', 'perf']);
  });
});

describe('TaskEditor, a sign-in that may not change tasks', () => {
  test('every field is turned off and the editor says why', async () => {
    useSession.setState({
      current: account({ read_only_kinds: [{ kind: 'task', scope: 'tasks:write' }] }),
    });
    await openEditor({ tags: ['bug'] });
    for (const label of ['Title', 'Status', 'Sprint', 'Goal', 'Milestone', 'Description']) {
      expect(screen.getByLabelText<HTMLInputElement>(label).disabled, label).toBe(true);
    }
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Remove tag bug' }).disabled).toBe(true);
    expect(screen.getByTestId('consent-task-editor').textContent).toContain('tasks:write');
  });
});

describe('TaskEditor, parent and sub-tasks', () => {
  const family = {
    parent: { task_id: 't-launch', title: 'Launch the site', status: 'in_progress' },
    sub_tasks: [
      { task_id: 't-copy', title: 'Write the copy', status: 'completed', pending: false },
      { task_id: 't-ads', title: 'Book the ads', status: 'not_started', pending: true },
      { task_id: 't-mail', title: 'Mail the list', status: 'in_progress', pending: false },
    ],
    sub_tasks_done: 1,
  };

  test('shows the parent, which opens, and the sub-tasks with how many are done', async () => {
    const user = userEvent.setup();
    await openEditor({}, family);
    const subTasks = screen.getByTestId('sub-tasks');
    expect(within(subTasks).getByTestId('sub-task-progress').textContent).toBe('1 of 3 done · 33%');
    expect(
      within(subTasks)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      'Write the copy · Done',
      'Book the ads · Not started · not sent yet',
      'Mail the list · In progress',
    ]);
    await user.click(
      within(screen.getByTestId('task-parent')).getByRole('button', { name: '‘Launch the site’' }),
    );
    expect(useView.getState().openTaskId).toBe('t-launch');
    await user.click(within(subTasks).getByRole('button', { name: 'Book the ads' }));
    expect(useView.getState().openTaskId).toBe('t-ads');
  });

  test("'Add sub-task' queues a new task under this one, in its project and team", async () => {
    const user = userEvent.setup();
    await openEditor();
    bridge.answer('task:create', ({ fields }) => taskDetail({ task_id: 'local-9', title: fields.title }));
    await user.type(screen.getByLabelText('New sub-task'), ' Order the banner ');
    await user.click(screen.getByRole('button', { name: 'Add sub-task' }));
    expect(bridge.callsOf('task:create')).toEqual([
      {
        fields: {
          title: 'Order the banner',
          parent_task_id: 't-1',
          project_id: 'p-web',
          team_id: 'team-1',
        },
      },
    ]);
    expect(screen.getByLabelText<HTMLInputElement>('New sub-task').value).toBe('');
  });

  test('completing a task with open sub-tasks asks first, naming how many; cancelled, nothing is sent', async () => {
    const user = userEvent.setup();
    await openEditor({}, family);
    await user.selectOptions(screen.getByLabelText('Status'), 'completed');
    const question = screen.getByRole('alertdialog', { name: 'Complete this task?' });
    expect(question.textContent).toContain('‘Fix the footer’ has 2 open sub-tasks.');
    expect(bridge.callsOf('task:edit')).toEqual([]);
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsOf('task:edit')).toEqual([]);

    await user.selectOptions(screen.getByLabelText('Status'), 'completed');
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Complete this task?' })).getByRole('button', {
        name: 'Complete anyway',
      }),
    );
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { status: 'completed' } }]);
  });

  test('completing a task whose sub-tasks are all done asks nothing', async () => {
    const user = userEvent.setup();
    await openEditor({}, { sub_tasks: family.sub_tasks.slice(0, 1), sub_tasks_done: 1 });
    await user.selectOptions(screen.getByLabelText('Status'), 'completed');
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-1', patch: { status: 'completed' } }]);
  });

  test("a sub-task's create settling, named alone, reads its parent again: its 'not sent yet' goes", async () => {
    const pending = { task_id: 'local-ads', title: 'Book the ads', status: 'not_started', pending: true };
    await openEditor({}, { sub_tasks: [pending], sub_tasks_done: 0 });
    const subTasks = screen.getByTestId('sub-tasks');
    const item = () => within(subTasks).getByRole('listitem').textContent;
    expect(item()).toBe('Book the ads · Not started · not sent yet');
    const sent = { ...pending, task_id: 't-ads', pending: false };
    bridge.answer('task:get', () =>
      taskDetail({ task_id: 't-1', title: 'Fix the footer' }, { sub_tasks: [sent], sub_tasks_done: 0 }),
    );
    const reads = bridge.callsOf('task:get').length;
    const settled = (taskIds: string[]) =>
      act(() =>
        bridge.emit('mirror:changed', {
          account_id: 'acct-1',
          collections: ['tasks'],
          task_ids: taskIds,
          remapped: [],
        }),
      );
    // Another task's push is not this editor's: nothing is read again.
    settled(['t-other', 't-other-2']);
    expect(bridge.callsOf('task:get')).toHaveLength(reads);
    // The push's own note names the sub-task (its temporary and its server id), never the parent.
    settled(['local-ads', 't-ads']);
    await waitFor(() => expect(item()).toBe('Book the ads · Not started'));
  });

  test('deleting a task with sub-tasks says they stay', async () => {
    const user = userEvent.setup();
    await openEditor({}, family);
    await user.click(screen.getByRole('button', { name: 'Delete task' }));
    expect(screen.getByRole('alertdialog', { name: 'Delete this task?' }).textContent).toContain(
      'Its 3 sub-tasks stay, as tasks of their own.',
    );
  });
});

// @vitest-environment happy-dom
// A saved view's screen as a person uses it: its rows; the service's refusals
// said on the view in their own words (403: another's view; 409: a pin already
// there, with no rename offered for a pin); delete asked first; a view whose
// filters this version does not know said unavailable, not answered without them;
// a view saved as a board opens as a board, its columns by its grouping, a
// card moved to another column (Alt+arrows or a drag) an edit of its task.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import type { TaskRow } from '../../../ipc/screen-schemas';
import type { ViewSidebar } from '../../../ipc/view-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { taskIdsIn } from '../testing/shown-tasks';
import {
  pendingChange,
  project,
  serverAnswer,
  taskDetail,
  taskRow,
  workspaceOf,
} from '../testing/screen-fixtures';
import { useView } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { SavedViewScreen } from './saved-view-screen';

const bridge = fakeBridgeEachTest();

const sidebar: ViewSidebar = {
  views: [
    {
      view_id: 'v-1',
      name: 'Blocked',
      visibility: 'shared',
      layout: 'list',
      group_by: null,
      sort_by: 'title',
      sort_order: 'asc',
      filters: { status: ['blocked'] },
      created_by: 'u2',
      unknown_filters: null,
    },
  ],
  pins: [{ pin_id: 'local-p1', view_id: 'v-1', position: 1, pending: 'failed' }],
};

const row = (id: string, title: string): TaskRow => taskRow({ task_id: id, title, status: 'blocked' });

const refused = (
  entity_type: string,
  entity_id: string,
  kind: PendingChange['kind'],
  status: number,
  detail: string,
): PendingChange =>
  pendingChange({
    op_id: `op-${entity_id}`,
    entity_type,
    entity_id,
    kind,
    state: 'failed',
    attempts: 1,
    last_answer: serverAnswer(status, detail),
  });

function answerWith(
  changes: PendingChange[],
  rows = [row('t1', 'Fix the build'), row('t2', 'Ship it')],
  views: ViewSidebar = sidebar,
) {
  bridge.answer('views:sidebar', () => views);
  bridge.answer('outbox:list', () => ({ changes }));
  bridge.answer('views:rows', () => ({ available: true, source: 'mirror', rows, next: null }));
}

describe('SavedViewScreen', () => {
  test('shows its rows, and the refusals on the view: 403 for another’s view, 409 for a pin already there', async () => {
    answerWith([
      refused('view', 'v-1', 'update', 403, 'Forbidden'),
      refused('view_pin', 'local-p1', 'create', 409, "View 'Blocked' is already pinned."),
    ]);
    render(<SavedViewScreen viewId="v-1" />);
    const rows = await screen.findByRole('list', { name: 'Tasks of Blocked' });
    expect(taskIdsIn(rows)).toEqual(['t1', 't2']);
    const view = await screen.findByTestId('view-refusal');
    expect(view.textContent).toContain(
      "Only the view's creator or an organization owner or admin may change it (403).",
    );
    const pin = screen.getByTestId('pin-refusal');
    expect(pin.textContent).toContain('This pin was not created.');
    expect(pin.textContent).toContain("View 'Blocked' is already pinned. (409)");
    expect(within(pin).queryByRole('button', { name: /rename/i })).toBeNull();
  });

  test('delete asks first: Cancel sends nothing, Delete view queues the delete', async () => {
    const user = userEvent.setup();
    answerWith([]);
    bridge.answer('collection:delete', ({ id }) => ({ id, op_id: 'op-d' }));
    render(<SavedViewScreen viewId="v-1" />);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await user.click(
      within(screen.getByRole('alertdialog', { name: 'Delete this view?' })).getByText('Cancel'),
    );
    expect(bridge.callsOf('collection:delete')).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    await user.click(screen.getByRole('button', { name: 'Delete view' }));
    expect(bridge.callsOf('collection:delete')).toEqual([{ kind: 'view', id: 'v-1' }]);
  });

  test('a view whose filters this version does not know says it is unavailable offline', async () => {
    bridge.answer('views:sidebar', () => sidebar);
    bridge.answer('outbox:list', () => ({ changes: [] }));
    bridge.answer('views:rows', () => ({
      available: false,
      reason: 'unknown-filters',
      detail: 'filter[mood] is not a task-list filter',
    }));
    render(<SavedViewScreen viewId="v-1" />);
    const note = await screen.findByRole('note');
    expect(note.textContent).toMatch(
      /does not know \(filter\[mood\].*\): it is shown from the service while online, and is not available offline/,
    );
    expect(screen.queryByRole('list', { name: 'Tasks of Blocked' })).toBeNull();
  });
});

describe('a view saved as a board', () => {
  const boardOf = (group_by: string | null): ViewSidebar => ({
    views: sidebar.views.map((view) => ({ ...view, layout: 'board', group_by })),
    pins: [],
  });
  /** Each column's name and its cards' titles, left to right, top to bottom. */
  const columns = () =>
    within(screen.getByRole('group', { name: 'Board of Blocked' }))
      .getAllByRole('list')
      .map((list) => [
        list.getAttribute('aria-label'),
        within(list)
          .queryAllByRole('listitem')
          .map((item) => item.querySelector('.card-title')?.textContent),
      ]);
  const rows = [
    taskRow({ task_id: 't1', title: 'Fix the build', status: 'blocked', project_id: 'p-web' }),
    taskRow({ task_id: 't2', title: 'Ship it', status: 'in_progress', project_id: 'p-api' }),
    taskRow({ task_id: 't3', title: 'Write docs', status: 'blocked', project_id: null }),
    taskRow({ task_id: 't4', title: 'Plan', status: 'waiting_on_legal', project_id: 'p-web' }),
  ];

  test('grouped by status: every status a column in the order work flows, the cards in the view’s order', async () => {
    answerWith([], rows, boardOf('status'));
    render(<SavedViewScreen viewId="v-1" />);
    await screen.findByRole('group', { name: 'Board of Blocked' });
    expect(screen.queryByRole('list', { name: 'Tasks of Blocked' })).toBeNull();
    expect(columns()).toEqual([
      ['Tasks in Not started', []],
      ['Tasks in In progress', ['Ship it']],
      ['Tasks in Blocked', ['Fix the build', 'Write docs']],
      ['Tasks in Done', []],
      ['Tasks in Waiting on legal', ['Plan']],
    ]);
  });

  /** The board grouped by project, the workspace naming the projects. */
  const boardByProject = async () => {
    bridge.answer('workspace:get', () =>
      workspaceOf({ projects: [project('p-web', 'Website'), project('p-api', 'API')] }),
    );
    await act(() => loadWorkspace());
    answerWith([], rows, boardOf('project'));
  };

  test('grouped by project: columns named as the workspace names them, tasks without one last; a card opens its task', async () => {
    const user = userEvent.setup();
    await boardByProject();
    render(<SavedViewScreen viewId="v-1" />);
    await screen.findByRole('group', { name: 'Board of Blocked' });
    expect(columns()).toEqual([
      ['Tasks in API', ['Ship it']],
      ['Tasks in Website', ['Fix the build', 'Plan']],
      ['Tasks in No project', ['Write docs']],
    ]);
    await user.click(screen.getByRole('button', { name: /Write docs/ }));
    expect(useView.getState().openTaskId).toBe('t3');
  });

  test('a board with no grouping is one column of all its tasks', async () => {
    answerWith([], rows, boardOf(null));
    render(<SavedViewScreen viewId="v-1" />);
    await screen.findByRole('group', { name: 'Board of Blocked' });
    expect(columns()).toEqual([['Tasks in All tasks', ['Fix the build', 'Ship it', 'Write docs', 'Plan']]]);
  });

  /** The card of `title`, and the column named `name` (its section). */
  const card = (title: string) => screen.getByRole('button', { name: new RegExp(title) });
  const column = (name: string) => screen.getByRole('list', { name: `Tasks in ${name}` }).closest('section')!;
  const edits = () => bridge.callsOf('task:edit');
  /** A card dragged by the mouse onto a column: one DataTransfer from the drag's start to its drop. */
  const dragTo = (title: string, name: string) => {
    const dataTransfer = new DataTransfer();
    fireEvent.dragStart(card(title).closest('li')!, { dataTransfer });
    fireEvent.dragOver(column(name), { dataTransfer });
    fireEvent.drop(column(name), { dataTransfer });
  };
  const answerEdits = () => bridge.answer('task:edit', ({ task_id }) => taskDetail({ task_id }));

  test("grouped by status: a card moved with Alt+arrows or dragged to a column is queued as an edit of its task's status", async () => {
    const user = userEvent.setup();
    answerWith([], rows, boardOf('status'));
    answerEdits();
    render(<SavedViewScreen viewId="v-1" />);
    await screen.findByRole('group', { name: 'Board of Blocked' });
    expect(card('Ship it').getAttribute('aria-keyshortcuts')).toBe('Alt+ArrowLeft Alt+ArrowRight');

    card('Ship it').focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    card('Fix the build').focus();
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    dragTo('Write docs', 'Done');
    await waitFor(() => expect(edits()).toHaveLength(3));
    expect(edits()).toEqual([
      { task_id: 't2', patch: { status: 'blocked' } },
      { task_id: 't1', patch: { status: 'in_progress' } },
      { task_id: 't3', patch: { status: 'completed' } },
    ]);
    // Dropped on its own column, or moved left from the first: nothing to change.
    dragTo('Plan', 'Waiting on legal');
    card('Plan').focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(edits()).toHaveLength(3);
  });

  test('grouped by project: a card moved to the column without one clears its project', async () => {
    const user = userEvent.setup();
    await boardByProject();
    answerEdits();
    render(<SavedViewScreen viewId="v-1" />);
    await screen.findByRole('group', { name: 'Board of Blocked' });
    card('Plan').focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    dragTo('Write docs', 'API');
    await waitFor(() => expect(edits()).toHaveLength(2));
    expect(edits()).toEqual([
      { task_id: 't4', patch: { project_id: null } },
      { task_id: 't3', patch: { project_id: 'p-api' } },
    ]);
  });

  test('a board with no grouping offers no moves', async () => {
    const user = userEvent.setup();
    answerWith([], rows, boardOf(null));
    render(<SavedViewScreen viewId="v-1" />);
    await screen.findByRole('group', { name: 'Board of Blocked' });
    expect(card('Ship it').hasAttribute('aria-keyshortcuts')).toBe(false);
    expect(card('Ship it').closest('li')!.getAttribute('draggable')).toBe('false');
    card('Ship it').focus();
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');
    expect(edits()).toEqual([]);
  });
});

// @vitest-environment happy-dom
// The section board as a person uses it. Its keyboard moves (Alt+arrows,
// use-board-moves.ts): a card moved up, down or to the next section, a section moved along,
// each shown at once, sent to main as the task or section edit that puts it
// there, and told to screen readers; a move past the edge sends nothing. Its
// drag and drop: a card dropped before or after another, or in a column's
// empty part, lands there; a section dragged by its header lands beside the
// column it is dropped on. The
// focus given back after a move is Chromium's to show (happy-dom keeps it on a
// moved element anyway): the end-to-end board tests hold it. And its sections
// added, renamed and deleted: a name empty or taken in the scope refused in
// place, before anything is sent.
import { act, createEvent, fireEvent, screen, within } from '@testing-library/react';
import userEvent, { type UserEvent } from '@testing-library/user-event';
import { describe, expect, test, vi } from 'vitest';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, project, taskDetail, taskRow, workspaceOf } from '../testing/screen-fixtures';
import { useSession } from '../store/session-store';
import { boardSection, card, renderProjectBoard } from './testing/board-screen';

const bridge = fakeBridgeEachTest();

const startRows: readonly TaskRow[] = [
  taskRow({ task_id: 't-a', title: 'Write docs', section_id: 's-todo', position: 1024 }),
  taskRow({ task_id: 't-b', title: 'Fix login', section_id: 's-todo', position: 2048 }),
  taskRow({ task_id: 't-c', title: 'Tidy CSS', section_id: 's-todo', position: 3072 }),
  taskRow({ task_id: 't-d', title: 'Ship it', section_id: 's-doing', position: 1024 }),
];

/** Main as the board sees it: edits land in the mirror, and the next read answers with them. */
async function showBoard() {
  const sections = [
    boardSection('s-todo', 'To do', 1024),
    boardSection('s-doing', 'Doing', 2048),
    boardSection('s-done', 'Done', 3072),
  ];
  let rows = [...startRows];
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website')],
      sections: sections.map((s) => ({ ...s })),
    }),
  );
  bridge.answer('tasks:filed', () => ({ rows, truncated: false }));
  bridge.answer('task:edit', ({ task_id, patch }) => {
    rows = rows.map((row) => (row.task_id === task_id ? { ...row, ...(patch as Partial<TaskRow>) } : row));
    return taskDetail({ task_id });
  });
  bridge.answer('collection:create', () => ({ id: 'local-s9', op_id: null }));
  bridge.answer('collection:delete', ({ id }) => ({ id, op_id: null }));
  bridge.answer('collection:edit', ({ id, patch }) => {
    const edited = sections.find((s) => s.section_id === id);
    if (edited !== undefined && typeof patch['position'] === 'number') edited.position = patch['position'];
    return { id, op_id: null };
  });
  await renderProjectBoard();
}

function columnNames(): (string | null)[] {
  return [...document.querySelectorAll('[data-column-name]')].map((column) =>
    column.getAttribute('data-column-name'),
  );
}

function titlesIn(sectionName: string): string[] {
  const list = screen.getByRole('list', { name: `Tasks in ${sectionName}` });
  return within(list)
    .queryAllByRole('listitem')
    .map((item) => item.querySelector('.card-title')?.textContent ?? '');
}

/** Shows the board, focuses the card titled `title` and presses `keys` on it; the user, to press more. */
async function pressOnCard(title: string, keys: string): Promise<UserEvent> {
  const user = userEvent.setup();
  await showBoard();
  act(() => card(title).focus());
  await user.keyboard(keys);
  return user;
}

describe('moving a card with the keyboard', () => {
  test('Alt+↓ puts the card after the next one: shown at once, sent as its new position, and told', async () => {
    await pressOnCard('Write docs', '{Alt>}{ArrowDown}{/Alt}');

    expect(titlesIn('To do')).toEqual(['Fix login', 'Write docs', 'Tidy CSS']);
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-a', patch: { position: 2560 } }]),
    );
    expect(useView.getState().announcement).toBe(movedTo('Write docs', 'To do', 2, 3));
  });

  test('Alt+→ files the card in the next section at the same height', async () => {
    await pressOnCard('Fix login', '{Alt>}{ArrowRight}{/Alt}');

    expect(titlesIn('To do')).toEqual(['Write docs', 'Tidy CSS']);
    expect(titlesIn('Doing')).toEqual(['Ship it', 'Fix login']);
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit')).toEqual([
        { task_id: 't-b', patch: { section_id: 's-doing', position: 2048 } },
      ]),
    );
  });

  test('a move past the edge sends nothing and says why', async () => {
    const user = await pressOnCard('Write docs', '{Alt>}{ArrowUp}{/Alt}');
    expect(useView.getState().announcement).toBe('“Write docs” is already first in To do.');
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(useView.getState().announcement).toBe('“Write docs” is already in the first section.');
    expect(bridge.callsOf('task:edit')).toEqual([]);
    expect(titlesIn('To do')).toEqual(['Write docs', 'Fix login', 'Tidy CSS']);
  });

  test('arrows without Alt do not move the card', async () => {
    await pressOnCard('Write docs', '{ArrowDown}{Control>}{ArrowDown}{/Control}');
    expect(bridge.callsOf('task:edit')).toEqual([]);
    expect(titlesIn('To do')).toEqual(['Write docs', 'Fix login', 'Tidy CSS']);
  });

  test('two quick moves are sent in the order made, the second counted from where the first put it', async () => {
    await pressOnCard('Write docs', '{Alt>}{ArrowDown}{ArrowDown}{/Alt}');

    expect(titlesIn('To do')).toEqual(['Fix login', 'Tidy CSS', 'Write docs']);
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit')).toEqual([
        { task_id: 't-a', patch: { position: 2560 } },
        { task_id: 't-a', patch: { position: 4096 } },
      ]),
    );
  });
});

test('a card’s move buttons make the same moves, each offered only where it can go', async () => {
  const user = userEvent.setup();
  await showBoard();
  const moves = (title: string) =>
    within(card(title).closest('li') as HTMLElement)
      .queryAllByRole('button')
      .map((button) => button.getAttribute('aria-label'))
      .filter((label) => label !== null);
  expect(moves('Write docs')).toEqual(['Move down', 'Move to Doing']);
  expect(moves('Fix login')).toEqual(['Move up', 'Move down', 'Move to Doing']);
  await user.click(
    within(card('Fix login').closest('li') as HTMLElement).getByRole('button', { name: 'Move to Doing' }),
  );

  expect(titlesIn('Doing')).toEqual(['Ship it', 'Fix login']);
  expect(moves('Fix login')).toEqual(['Move to To do', 'Move up', 'Move to Done']);
  await vi.waitFor(() =>
    expect(bridge.callsOf('task:edit')).toEqual([
      { task_id: 't-b', patch: { section_id: 's-doing', position: 2048 } },
    ]),
  );
});

describe('moving a section with the keyboard', () => {
  test('Alt+→ on a section moves it one place right, sent as its new position', async () => {
    const user = userEvent.setup();
    await showBoard();
    const rename = screen.getByRole('button', { name: 'Rename section To do' });
    act(() => rename.focus());
    await user.keyboard('{Alt>}{ArrowRight}{/Alt}');

    expect(columnNames()).toEqual(['Doing', 'To do', 'Done']);
    await vi.waitFor(() =>
      expect(bridge.callsOf('collection:edit')).toEqual([
        { kind: 'section', id: 's-todo', patch: { position: 2560 } },
      ]),
    );
    expect(useView.getState().announcement).toBe('Moved section “To do” to position 2 of 3.');
    // The workspace is read again so the sidebar and other screens see the new order.
    await vi.waitFor(() => expect(bridge.callsOf('workspace:get')).toHaveLength(2));
    expect(columnNames()).toEqual(['Doing', 'To do', 'Done']);
  });

  test('the first section does not move left', async () => {
    const user = userEvent.setup();
    await showBoard();
    act(() => screen.getByRole('button', { name: 'Rename section To do' }).focus());
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(bridge.callsOf('collection:edit')).toEqual([]);
  });
});

describe('dragging and dropping', () => {
  // happy-dom lays nothing out: every box is at 0 with no size, so a pointer at 0 is in the first
  // half of what it is over (it lands before it) and one at 1 in the second (after it).
  const FIRST_HALF = { clientX: 0, clientY: 0 };
  const SECOND_HALF = { clientX: 1, clientY: 1 };
  const carried = { dataTransfer: {} };

  const cardItem = (title: string): HTMLElement => card(title).closest('li') as HTMLElement;
  const column = (name: string): HTMLElement =>
    document.querySelector(`[data-column-name="${name}"]`) as HTMLElement;
  const header = (name: string): HTMLElement =>
    screen.getByRole('button', { name: `Rename section ${name}` }).closest('header') as HTMLElement;

  /** A drag over `target` at `where` (happy-dom's DragEvent is a plain Event: the pointer is set on it). */
  function dragOver(target: HTMLElement, where = FIRST_HALF) {
    const event = createEvent.dragOver(target, carried);
    Object.defineProperties(event, { clientX: { value: where.clientX }, clientY: { value: where.clientY } });
    fireEvent(target, event);
  }

  /** Picks `from` up, moves it over `over` (at `where` in it) and lets go there. */
  function dragAndDrop(from: HTMLElement, over: HTMLElement, where = FIRST_HALF) {
    fireEvent.dragStart(from, carried);
    dragOver(over, where);
    fireEvent.drop(over, carried);
    fireEvent.dragEnd(from, carried);
  }

  test('a card dropped on the top half of a card in another section lands before it: shown at once, sent, told', async () => {
    await showBoard();
    fireEvent.dragStart(cardItem('Fix login'), carried);
    dragOver(cardItem('Ship it'));
    // Where it would land is shown while it is carried.
    expect(column('Doing').classList).toContain('is-drop-target');
    expect(cardItem('Ship it').classList).toContain('drop-before');
    fireEvent.drop(cardItem('Ship it'), carried);

    expect(titlesIn('Doing')).toEqual(['Fix login', 'Ship it']);
    expect(titlesIn('To do')).toEqual(['Write docs', 'Tidy CSS']);
    expect(column('Doing').classList).not.toContain('is-drop-target');
    expect(useView.getState().announcement).toBe(movedTo('Fix login', 'Doing', 1, 2));
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit')).toEqual([
        { task_id: 't-b', patch: { section_id: 's-doing', position: 0 } },
      ]),
    );
  });

  test('a card dropped on the bottom half of a card in its own section lands after it', async () => {
    await showBoard();
    dragAndDrop(cardItem('Write docs'), cardItem('Fix login'), SECOND_HALF);

    expect(titlesIn('To do')).toEqual(['Fix login', 'Write docs', 'Tidy CSS']);
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit')).toEqual([{ task_id: 't-a', patch: { position: 2560 } }]),
    );
  });

  test('a card dropped in the empty part of a column goes last there, an empty column too', async () => {
    await showBoard();
    dragAndDrop(cardItem('Write docs'), column('To do'));
    expect(titlesIn('To do')).toEqual(['Fix login', 'Tidy CSS', 'Write docs']);
    dragAndDrop(cardItem('Ship it'), column('Done'));
    expect(titlesIn('Done')).toEqual(['Ship it']);
    expect(titlesIn('Doing')).toEqual([]);
    await vi.waitFor(() =>
      expect(bridge.callsOf('task:edit')).toEqual([
        { task_id: 't-a', patch: { position: 4096 } },
        { task_id: 't-d', patch: { section_id: 's-done', position: 1024 } },
      ]),
    );
  });

  test('a card dropped where it already is, or a drag given up, sends nothing', async () => {
    await showBoard();
    dragAndDrop(cardItem('Fix login'), cardItem('Fix login'));
    dragAndDrop(cardItem('Fix login'), cardItem('Write docs'), SECOND_HALF);
    fireEvent.dragStart(cardItem('Tidy CSS'), carried);
    dragOver(column('Done'));
    fireEvent.dragEnd(cardItem('Tidy CSS'), carried);
    expect(column('Done').classList).not.toContain('is-drop-target');
    // A drop with nothing picked up on the board (a file, another window's text) is not a move.
    fireEvent.drop(column('Done'), carried);

    expect(titlesIn('To do')).toEqual(['Write docs', 'Fix login', 'Tidy CSS']);
    expect(bridge.callsOf('task:edit')).toEqual([]);
  });

  test('a section dragged by its header onto the second half of the next column moves after it', async () => {
    await showBoard();
    fireEvent.dragStart(header('To do'), carried);
    dragOver(column('Doing'), SECOND_HALF);
    // The bar is drawn on the side of the column it would go after: before the one after that.
    expect(column('Done').classList).toContain('drop-section-before');
    fireEvent.drop(column('Doing'), carried);
    fireEvent.dragEnd(header('To do'), carried);

    expect(columnNames()).toEqual(['Doing', 'To do', 'Done']);
    expect(useView.getState().announcement).toBe('Moved section “To do” to position 2 of 3.');
    await vi.waitFor(() =>
      expect(bridge.callsOf('collection:edit')).toEqual([
        { kind: 'section', id: 's-todo', patch: { position: 2560 } },
      ]),
    );
  });

  test('a section dropped on the first half of the first column becomes first', async () => {
    await showBoard();
    dragAndDrop(header('Done'), column('To do'));

    expect(columnNames()).toEqual(['Done', 'To do', 'Doing']);
    await vi.waitFor(() =>
      expect(bridge.callsOf('collection:edit')).toEqual([
        { kind: 'section', id: 's-done', patch: { position: 0 } },
      ]),
    );
  });
});

/** movedWords' sentence, spelled here so a change of wording is seen. */
function movedTo(title: string, sectionName: string, place: number, of: number): string {
  return `Moved “${title}” to ${sectionName}, position ${place} of ${of}.`;
}

describe('adding, renaming and deleting sections', () => {
  test('a new section is added at the end of the scope under the typed name', async () => {
    const user = userEvent.setup();
    await showBoard();
    await user.click(screen.getByRole('button', { name: '+ Add section' }));
    await user.type(screen.getByLabelText('New section name'), '  Review {Enter}');

    expect(bridge.callsOf('collection:create')).toEqual([
      {
        kind: 'section',
        fields: { scope_type: 'project', scope_id: 'p-web', name: 'Review', position: 4096 },
      },
    ]);
    await vi.waitFor(() => expect(useView.getState().announcement).toBe('Section “Review” added.'));
    expect(screen.queryByLabelText('New section name')).toBeNull();
  });

  test('a name already used here, in any case, is refused in place and nothing is sent', async () => {
    const user = userEvent.setup();
    await showBoard();
    await user.click(screen.getByRole('button', { name: '+ Add section' }));
    const field = screen.getByLabelText('New section name');
    // Empty is not an error until the person tries to add it.
    expect(screen.queryByRole('alert')).toBeNull();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('A section needs a name.');

    await user.type(field, 'doing');
    expect(screen.getByRole('alert').textContent).toBe('There is already a section called “Doing” here.');
    expect(field.getAttribute('aria-invalid')).toBe('true');
    await user.keyboard('{Enter}');
    expect(bridge.callsOf('collection:create')).toEqual([]);

    await user.keyboard('{Escape}');
    expect(screen.queryByLabelText('New section name')).toBeNull();
    expect(bridge.callsOf('collection:create')).toEqual([]);
  });

  test('a section renamed in place sends the new name; Escape sends nothing', async () => {
    const user = userEvent.setup();
    await showBoard();
    const renameField = () => screen.queryByRole('textbox', { name: 'Rename section To do' });
    await user.click(screen.getByRole('button', { name: 'Rename section To do' }));
    const field = renameField() as HTMLInputElement;
    expect(field.value).toBe('To do');
    await user.clear(field);
    await user.type(field, 'Later{Escape}');
    expect(renameField()).toBeNull();
    expect(bridge.callsOf('collection:edit')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Rename section To do' }));
    await user.clear(renameField() as HTMLInputElement);
    await user.type(renameField() as HTMLInputElement, 'Backlog{Enter}');
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'section', id: 's-todo', patch: { name: 'Backlog' } },
    ]);
  });

  test("a rename to another section's name stays open to fix, even when the field is left", async () => {
    const user = userEvent.setup();
    await showBoard();
    await user.click(screen.getByRole('button', { name: 'Rename section To do' }));
    const field = screen.getByRole('textbox', { name: 'Rename section To do' });
    await user.clear(field);
    await user.type(field, 'Done');
    expect(screen.getByRole('alert').textContent).toBe('There is already a section called “Done” here.');
    await user.tab();
    expect(bridge.callsOf('collection:edit')).toEqual([]);
    await user.click(field);
    await user.keyboard('{Enter}');
    expect(bridge.callsOf('collection:edit')).toEqual([]);
    expect(screen.getByRole('textbox', { name: 'Rename section To do' })).toBe(field);
  });

  test('deleting asks first, saying its tasks stay, and sends the delete only when confirmed', async () => {
    const user = userEvent.setup();
    await showBoard();
    await user.click(screen.getByRole('button', { name: 'Delete section To do' }));
    const question = screen.getByRole('alertdialog', { name: 'Delete section “To do”?' });
    expect(question.textContent).toContain('Its 3 tasks are not deleted');
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    expect(bridge.callsOf('collection:delete')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete section To do' }));
    await user.click(screen.getByRole('button', { name: 'Delete section' }));
    expect(bridge.callsOf('collection:delete')).toEqual([{ kind: 'section', id: 's-todo' }]);
  });
});

describe('a sign-in that may not change tasks', () => {
  test('the board is there to look at: no moves by key, button or drag, no section added', async () => {
    const user = userEvent.setup();
    useSession.setState({
      current: account({ read_only_kinds: [{ kind: 'task', scope: 'tasks:write' }] }),
    });
    await showBoard();
    expect(screen.queryByRole('button', { name: 'Move down' })).toBeNull();
    expect(screen.queryByRole('button', { name: '+ Add section' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Rename section To do' })).toBeNull();
    act(() => card('Write docs').focus());
    await user.keyboard('{Alt>}{ArrowDown}{ArrowRight}{/Alt}');
    // Nor by drag and drop: a card is not picked up, and a drop is not a move.
    const item = card('Write docs').closest('li') as HTMLElement;
    expect(item.getAttribute('draggable')).toBe('false');
    const doing = document.querySelector('[data-column-name="Doing"]') as HTMLElement;
    fireEvent.dragStart(item, { dataTransfer: {} });
    fireEvent.dragOver(doing, { dataTransfer: {} });
    fireEvent.drop(doing, { dataTransfer: {} });
    expect(bridge.callsOf('task:edit')).toEqual([]);
    expect(titlesIn('To do')).toEqual(['Write docs', 'Fix login', 'Tidy CSS']);
  });
});

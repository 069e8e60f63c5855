// A saved view laid out as a board: one column per value of its grouping, the
// view's rows as cards in its sort (ui/row-groups.ts), a card opening its task.
// A card dragged to another column, or moved with Alt+Left/Right, files its
// task under that column's value (its status, assignee, section…): an edit
// queued like any other, which the view's rows then follow. The view's sort
// places it within the column, so there is no place in a column to choose.
import { type DragEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import type { ViewSummary } from '../../../ipc/view-schemas';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce, openTask, useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { useKindReadOnly } from '../ui/kind-consent';
import { type RowGroup, groupPatch, groupRows, isGrouping } from '../ui/row-groups';
import { TaskCardFace } from '../ui/task-card';
import { carriesTask, carryTask, droppedTask } from '../ui/task-drag';

export function ViewBoard({ view, rows }: { view: ViewSummary; rows: readonly TaskRow[] }) {
  const openTaskId = useView((state) => state.openTaskId);
  const projectNames = useWorkspace((state) => state.projectNames);
  const sectionNames = useWorkspace((state) => state.sectionNames);
  const sprints = useWorkspace((state) => state.sprints);
  const sprintNames = new Map([...sprints].map(([id, sprint]) => [id, sprint.name]));
  const groups = groupRows(rows, view.group_by, { projectNames, sectionNames, sprintNames });
  // A sign-in without tasks:write, or a view with no grouping, leaves the board to look at.
  const readOnly = useKindReadOnly('task') || !isGrouping(view.group_by);
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  const focusAfter = useRef<string | null>(null);

  // A card moved by keyboard is put in its new column (React moves it), which takes its focus
  // away; give it back once it is there, unless the person has focused something else.
  useEffect(() => {
    const taskId = focusAfter.current;
    const active = document.activeElement;
    if (taskId === null || (active !== null && active !== document.body)) return;
    const card = boardRef.current?.querySelector<HTMLElement>(
      `li[data-task-id="${CSS.escape(taskId)}"] .card-open`,
    );
    if (!card) return;
    focusAfter.current = null;
    card.focus();
  });

  async function move(row: TaskRow, from: RowGroup, to: RowGroup): Promise<void> {
    const patch = groupPatch(view.group_by, to.key);
    if (patch === null || to.key === from.key) return;
    try {
      await invoke('task:edit', { task_id: row.task_id, patch });
      announce(`Moved “${row.title}” to ${to.name}.`);
    } catch (error) {
      showProblem(error, 'Moving the task');
    }
  }

  const onKeyDown = (event: KeyboardEvent, row: TaskRow, at: number) => {
    if (readOnly || !event.altKey || event.shiftKey || event.ctrlKey || event.metaKey) return;
    const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const from = groups[at];
    // The column without a status takes no card: the move goes past it.
    let to = at + step;
    while (groups[to] !== undefined && groupPatch(view.group_by, groups[to]!.key) === null) to += step;
    const target = groups[to];
    if (from === undefined || target === undefined) {
      announce(`“${row.title}” is already in the ${step < 0 ? 'first' : 'last'} column.`);
      return;
    }
    focusAfter.current = row.task_id;
    void move(row, from, target);
  };

  const dropOn = (group: RowGroup) => ({
    onDragOver: (event: DragEvent) => {
      if (!carriesTask(event) || groupPatch(view.group_by, group.key) === null) return;
      event.preventDefault();
      event.dataTransfer.dropEffect = 'move';
      setOver(group.key);
    },
    onDragLeave: () => setOver((key) => (key === group.key ? null : key)),
    onDrop: (event: DragEvent) => {
      const taskId = droppedTask(event) ?? dragged;
      if (taskId === null) return;
      event.preventDefault();
      setOver(null);
      setDragged(null);
      const from = groups.find((g) => g.rows.some((r) => r.task_id === taskId));
      const row = from?.rows.find((r) => r.task_id === taskId);
      // A task from elsewhere (another screen's card) is not this board's to move.
      if (from !== undefined && row !== undefined) void move(row, from, group);
    },
  });

  return (
    <div
      ref={boardRef}
      className="board-columns view-board"
      role="group"
      aria-label={`Board of ${view.name}`}
    >
      {groups.map((group, at) => (
        <section
          key={group.key}
          className={`board-column${over === group.key ? ' is-drop-target' : ''}`}
          data-column-name={group.name}
          aria-label={`${group.name}, ${group.rows.length} tasks`}
          {...(readOnly ? {} : dropOn(group))}
        >
          <h2 className="column-title">
            {group.name} <span className="muted">{group.rows.length}</span>
          </h2>
          <ul className="cards" aria-label={`Tasks in ${group.name}`}>
            {group.rows.map((row) => (
              <li
                key={row.task_id}
                className={`card${row.task_id === openTaskId ? ' is-open' : ''}`}
                data-task-id={row.task_id}
                draggable={!readOnly}
                onDragStart={(event) => {
                  // The task rides along too: dropped on a sprint in the sidebar, it is filed there.
                  carryTask(event, row.task_id, row.title);
                  setDragged(row.task_id);
                }}
                onDragEnd={() => {
                  setDragged(null);
                  setOver(null);
                }}
              >
                <button
                  type="button"
                  className="card-open"
                  onClick={() => openTask(row.task_id)}
                  onKeyDown={(event) => onKeyDown(event, row, at)}
                  {...(readOnly ? {} : { 'aria-keyshortcuts': 'Alt+ArrowLeft Alt+ArrowRight' })}
                >
                  <TaskCardFace row={row} />
                </button>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}

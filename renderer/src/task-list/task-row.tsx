// One row of the task grid: the sync mark, title, status, priority, assignee,
// due date, project and tags of a task, or a placeholder while its page loads.
import { memo, type MouseEvent } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { DraftMark } from '../ui/draft-mark';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { dayWords, isOverdue, valueWord } from '../vocabulary/task-words';
import { carryTask } from '../ui/task-drag';
import { noticeRefusals, useFileDrop } from '../ui/file-drop';
import './task-list.css';

export const ROW_HEIGHT = 36;

export interface TaskRowViewProps {
  index: number;
  row: TaskRow | undefined;
  start: number;
  active: boolean;
  /** Part of the selection a bulk change is made to. */
  selected: boolean;
  open: boolean;
  projectName: string | null;
  /** A click, with its modifiers (Shift: a range, Ctrl/Cmd: toggle). */
  onPick: (index: number, taskId: string, event: MouseEvent) => void;
}

export function rowElementId(index: number): string {
  return `task-row-${index}`;
}

export const TaskRowView = memo(function TaskRowView(props: TaskRowViewProps) {
  const { index, row, start, active, selected, open, projectName, onPick } = props;
  // Files dropped on a row are attached to its task; the editor's list shows them once it is opened.
  const drop = useFileDrop(row?.task_id ?? '', noticeRefusals);
  const className = `task-row${active ? ' is-active' : ''}${open ? ' is-open' : ''}${selected ? ' is-selected' : ''}${drop.over ? ' is-file-target' : ''}`;
  // Offsets go through the style property (CSSOM), which the page's CSP allows without inline styles.
  const style = { transform: `translateY(${start}px)` };
  if (row === undefined) {
    // The same cells as a loaded row, empty: when its page arrives React fills them in place
    // instead of replacing the row's children (a fast scroll turns every row over each frame).
    return (
      <div
        role="row"
        id={rowElementId(index)}
        aria-rowindex={index + 2}
        className={`${className} is-loading`}
        style={style}
      >
        <div role="gridcell" className="cell cell-mark" />
        <div role="gridcell" className="cell cell-title">
          <span className="placeholder-bar" aria-label="Loading" />
        </div>
        <div role="gridcell" className="cell cell-status" />
        <div role="gridcell" className="cell cell-priority" />
        <div role="gridcell" className="cell cell-assignee" />
        <div role="gridcell" className="cell cell-due" />
        <div role="gridcell" className="cell cell-project" />
        <div role="gridcell" className="cell cell-tags" />
      </div>
    );
  }
  const overdue = isOverdue(row.due_date, row.status);
  return (
    <div
      role="row"
      id={rowElementId(index)}
      aria-rowindex={index + 2}
      aria-selected={selected || open}
      data-task-id={row.task_id}
      className={className}
      style={style}
      // Dragged onto a sprint in the sidebar, a row files its task there.
      draggable
      onDragStart={(event) => carryTask(event, row.task_id, row.title)}
      onClick={(event) => onPick(index, row.task_id, event)}
      {...drop.handlers}
    >
      <div role="gridcell" className="cell cell-mark">
        <SyncMarkBadge mark={row.sync_mark} waitsOn={row.waits_on} compact />
      </div>
      <div role="gridcell" className="cell cell-title">
        {row.task_type === 'bug' ? (
          <span className="type-bug" title="Bug">
            Bug
          </span>
        ) : null}
        <span className={`title-text${row.status === 'completed' ? ' is-done' : ''}`}>{row.title}</span>
        <DraftMark taskId={row.task_id} />
      </div>
      <div role="gridcell" className="cell cell-status">
        <span className={`status-pill status-${row.status}`}>{valueWord(row.status)}</span>
      </div>
      <div role="gridcell" className="cell cell-priority">
        {row.priority === null ? (
          <span className="muted">—</span>
        ) : (
          <span className={`priority priority-${row.priority}`}>{valueWord(row.priority)}</span>
        )}
      </div>
      {/* Each cell keeps one shape whatever its task holds, so that when the row's slot takes another
          task (a keystroke's answer, a scroll) React changes text and classes in place instead of
          deleting and creating elements (issue #28: a keystroke's answer redraws every row). */}
      <div role="gridcell" className="cell cell-assignee">
        <span className={row.assignee === null ? 'cell-text muted' : 'cell-text'}>
          {row.assignee ?? 'Unassigned'}
        </span>
      </div>
      <div role="gridcell" className={`cell cell-due${overdue ? ' is-overdue' : ''}`}>
        <span className={row.due_date === null ? 'muted' : undefined}>
          {row.due_date === null ? '—' : dayWords(row.due_date)}
        </span>
        {overdue ? <span className="visually-hidden"> (overdue)</span> : null}
      </div>
      <div role="gridcell" className="cell cell-project">
        {/* A flex cell cannot ellipsize its own text: a long name is cut in its span, short of the tags. */}
        {projectName === null ? (
          <span className="muted">—</span>
        ) : (
          <span className="cell-text">{projectName}</span>
        )}
      </div>
      <div role="gridcell" className="cell cell-tags">
        {row.tags.slice(0, 2).map((tag, place) => (
          // Keyed by place, not name: another task's tags take the same two chips.
          <span key={place} className="tag">
            {tag}
          </span>
        ))}
        {row.tags.length > 2 ? <span className="muted">+{row.tags.length - 2}</span> : null}
      </div>
    </div>
  );
});

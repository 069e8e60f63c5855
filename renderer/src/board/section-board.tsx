// Sections as a board: one column per section of a scope (a project, a team,
// or the person's own), its tasks as cards. Cards move between sections by
// drag and drop, by their arrow buttons, or with Alt+←/→ when focused; each
// move is an edit of `section_id`, applied at once and synced behind.
import { type DragEvent, useEffect, useState } from 'react';
import type { TaskRow } from '../../../main/ipc/screen-schemas';
import { invoke, subscribe } from '../bridge/svc';
import { showProblem, useSession } from '../store/session-store';
import { openTask, useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { SyncMarkBadge } from '../task-detail/sync-mark-badge';
import { dayWords, valueWord } from '../vocabulary/task-words';

const DRAG_TYPE = 'application/x-svc-task';

export function useFiledTasks(field: 'section_id' | 'sprint_id' | 'goal_id', values: readonly string[]) {
  const [rows, setRows] = useState<TaskRow[] | null>(null);
  const [truncated, setTruncated] = useState(false);
  const key = values.join('\u0000');
  useEffect(() => {
    const ids = key === '' ? [] : key.split('\u0000');
    let cancelled = false;
    const load = () => {
      if (ids.length === 0) {
        setRows([]);
        return;
      }
      invoke('tasks:filed', { field, values: ids })
        .then((found) => {
          if (!cancelled) {
            setRows(found.rows);
            setTruncated(found.truncated);
          }
        })
        .catch((error: unknown) => {
          if (!cancelled) showProblem(error, 'Loading tasks');
        });
    };
    load();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = subscribe('mirror:changed', (change) => {
      if (!change.collections.includes('tasks') || timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        load();
      }, 150);
    });
    return () => {
      cancelled = true;
      stop();
      if (timer !== null) clearTimeout(timer);
    };
  }, [field, key]);
  return { rows, truncated };
}

function Card({
  row,
  previous,
  next,
  open,
  readOnly,
  onMove,
}: {
  row: TaskRow;
  previous: { id: string; name: string } | null;
  next: { id: string; name: string } | null;
  open: boolean;
  readOnly: boolean;
  onMove: (taskId: string, sectionId: string) => void;
}) {
  return (
    <li
      className={`card${open ? ' is-open' : ''}`}
      draggable={!readOnly}
      onDragStart={(event) => {
        event.dataTransfer.setData(DRAG_TYPE, row.task_id);
        event.dataTransfer.effectAllowed = 'move';
      }}
      data-task-id={row.task_id}
    >
      <button
        type="button"
        className="card-open"
        onClick={() => openTask(row.task_id)}
        onKeyDown={(event) => {
          if (!event.altKey || readOnly) return;
          if (event.key === 'ArrowLeft' && previous) {
            event.preventDefault();
            onMove(row.task_id, previous.id);
          } else if (event.key === 'ArrowRight' && next) {
            event.preventDefault();
            onMove(row.task_id, next.id);
          }
        }}
      >
        <span className={`card-title${row.status === 'completed' ? ' is-done' : ''}`}>{row.title}</span>
        <span className="card-meta">
          <span className={`status-pill status-${row.status}`}>{valueWord(row.status)}</span>
          {row.priority ? (
            <span className={`priority priority-${row.priority}`}>{valueWord(row.priority)}</span>
          ) : null}
          {row.assignee ? <span className="muted">{row.assignee}</span> : null}
          {row.due_date ? <span className="muted">{dayWords(row.due_date)}</span> : null}
          <SyncMarkBadge mark={row.sync_mark} compact />
        </span>
      </button>
      {!readOnly ? (
        <span className="card-moves">
          {previous ? (
            <button
              type="button"
              className="icon-button small"
              aria-label={`Move to ${previous.name}`}
              onClick={() => onMove(row.task_id, previous.id)}
            >
              ◀
            </button>
          ) : null}
          {next ? (
            <button
              type="button"
              className="icon-button small"
              aria-label={`Move to ${next.name}`}
              onClick={() => onMove(row.task_id, next.id)}
            >
              ▶
            </button>
          ) : null}
        </span>
      ) : null}
    </li>
  );
}

export function SectionBoard({ scopeType, scopeId }: { scopeType: string; scopeId: string }) {
  const workspace = useWorkspace((state) => state.workspace);
  const projectNames = useWorkspace((state) => state.projectNames);
  const teamNames = useWorkspace((state) => state.teamNames);
  const openTaskId = useView((state) => state.openTaskId);
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const sections = (workspace?.sections ?? []).filter(
    (section) => section.scope_type === scopeType && section.scope_id === scopeId,
  );
  const { rows, truncated } = useFiledTasks(
    'section_id',
    sections.map((section) => section.section_id),
  );
  const name =
    scopeType === 'user'
      ? 'My board'
      : scopeType === 'team'
        ? (teamNames.get(scopeId) ?? scopeId)
        : (projectNames.get(scopeId) ?? scopeId);

  const move = async (taskId: string, sectionId: string) => {
    try {
      await invoke('task:edit', { task_id: taskId, patch: { section_id: sectionId } });
    } catch (error) {
      showProblem(error, 'Moving the task');
    }
  };

  const onDrop = (event: DragEvent, sectionId: string) => {
    event.preventDefault();
    setDropTarget(null);
    const taskId = event.dataTransfer.getData(DRAG_TYPE);
    if (taskId !== '' && !readOnly) void move(taskId, sectionId);
  };

  return (
    <section className="board" aria-labelledby="board-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="board-title">{name}</h1>
          <span className="list-count">
            {sections.length} sections{truncated ? ' · showing the first 2 000 tasks' : ''}
          </span>
        </div>
      </header>
      {sections.length === 0 ? (
        <p className="empty-state">No sections here yet.</p>
      ) : (
        <div className="board-columns">
          {sections.map((section, index) => {
            const cards = (rows ?? []).filter((row) => row.section_id === section.section_id);
            const previous = sections[index - 1];
            const next = sections[index + 1];
            return (
              <section
                key={section.section_id}
                className={`board-column${dropTarget === section.section_id ? ' is-drop-target' : ''}`}
                data-section-id={section.section_id}
                aria-label={`${section.name}, ${cards.length} tasks`}
                onDragOver={(event) => {
                  if (readOnly) return;
                  event.preventDefault();
                  setDropTarget(section.section_id);
                }}
                onDragLeave={() => setDropTarget(null)}
                onDrop={(event) => onDrop(event, section.section_id)}
              >
                <h2 className="column-title">
                  {section.name} <span className="muted">{cards.length}</span>
                </h2>
                <ul className="cards">
                  {rows === null ? <li className="muted">Loading…</li> : null}
                  {cards.map((row) => (
                    <Card
                      key={row.task_id}
                      row={row}
                      previous={previous ? { id: previous.section_id, name: previous.name } : null}
                      next={next ? { id: next.section_id, name: next.name } : null}
                      open={row.task_id === openTaskId}
                      readOnly={readOnly}
                      onMove={(taskId, sectionId) => void move(taskId, sectionId)}
                    />
                  ))}
                </ul>
              </section>
            );
          })}
        </div>
      )}
    </section>
  );
}

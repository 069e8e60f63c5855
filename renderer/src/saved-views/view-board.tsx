// A saved view laid out as a board: one column per value of its grouping, the
// view's rows as cards in its sort (ui/row-groups.ts), a card opening its task.
import type { TaskRow } from '../../../ipc/screen-schemas';
import type { ViewSummary } from '../../../ipc/view-schemas';
import { openTask, useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { groupRows } from '../ui/row-groups';
import { TaskCardFace } from '../ui/task-card';

export function ViewBoard({ view, rows }: { view: ViewSummary; rows: readonly TaskRow[] }) {
  const openTaskId = useView((state) => state.openTaskId);
  const projectNames = useWorkspace((state) => state.projectNames);
  const sectionNames = useWorkspace((state) => state.sectionNames);
  const sprints = useWorkspace((state) => state.sprints);
  const sprintNames = new Map([...sprints].map(([id, sprint]) => [id, sprint.name]));
  const groups = groupRows(rows, view.group_by, { projectNames, sectionNames, sprintNames });
  return (
    <div className="board-columns view-board" role="group" aria-label={`Board of ${view.name}`}>
      {groups.map((group) => (
        <section
          key={group.key}
          className="board-column"
          data-column-name={group.name}
          aria-label={`${group.name}, ${group.rows.length} tasks`}
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
              >
                <button type="button" className="card-open" onClick={() => openTask(row.task_id)}>
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

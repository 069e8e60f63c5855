// Goals by project, each with its progress (`tasks_completed` of
// `tasks_total`, subtasks excluded); choosing one lists its tasks.
import { useFiledTasks } from '../board/section-board';
import { navigate } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { ProgressMeter } from '../sprints/progress-meter';
import { TaskLines } from '../sprints/sprint-view';
import { dayWords, valueWord } from '../vocabulary/task-words';

function GoalTasks({ goalId }: { goalId: string }) {
  const { rows } = useFiledTasks('goal_id', [goalId]);
  if (rows === null) return <p className="muted">Loading…</p>;
  if (rows.length === 0) return <p className="muted">No tasks under this goal.</p>;
  return <TaskLines rows={rows} label="Tasks under this goal" />;
}

export function GoalsView({ goalId }: { goalId: string | null }) {
  const goals = useWorkspace((state) => state.workspace?.goals ?? null);
  const projectNames = useWorkspace((state) => state.projectNames);
  const byProject = new Map<string, NonNullable<typeof goals>>();
  for (const goal of goals ?? []) {
    const list = byProject.get(goal.project_id) ?? [];
    list.push(goal);
    byProject.set(goal.project_id, list);
  }
  return (
    <section className="goals-view" aria-labelledby="goals-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="goals-title">Goals</h1>
          <span className="list-count">{goals === null ? 'Loading…' : `${goals.length} goals`}</span>
        </div>
      </header>
      <div className="goal-groups">
        {goals !== null && goals.length === 0 ? <p className="empty-state">No goals yet.</p> : null}
        {[...byProject.entries()].map(([projectId, list]) => (
          <section
            key={projectId}
            className="goal-group"
            aria-label={projectNames.get(projectId) ?? projectId}
          >
            <h2>{projectNames.get(projectId) ?? projectId}</h2>
            <ul className="goal-list">
              {list.map((goal) => {
                const selected = goal.goal_id === goalId;
                return (
                  <li key={goal.goal_id} className={`goal${selected ? ' is-selected' : ''}`}>
                    <button
                      type="button"
                      className="goal-head"
                      aria-expanded={selected}
                      onClick={() => navigate({ kind: 'goals', goalId: selected ? null : goal.goal_id })}
                    >
                      <span className="goal-name">{goal.name}</span>
                      <span className="muted">
                        {valueWord(goal.status ?? 'open')}
                        {goal.target_date ? ` · target ${dayWords(goal.target_date)}` : ''}
                      </span>
                    </button>
                    <ProgressMeter
                      done={goal.tasks_completed}
                      total={goal.tasks_total}
                      label={`${goal.name} progress`}
                    />
                    {selected ? <GoalTasks goalId={goal.goal_id} /> : null}
                  </li>
                );
              })}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}

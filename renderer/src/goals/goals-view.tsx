// Goals by project, each with its progress (`tasks_completed` of
// `tasks_total`, subtasks excluded); choosing one opens it with its tasks and
// what can be done with it. New goals are created here, shown at once (a
// change still waiting carries its mark) and sent through the outbox.
import { KindConsentNotice, useKindReadOnly } from '../ui/kind-consent';
import { useState } from 'react';
import { useStableKeys } from '../data/use-remaps';
import { announce, navigate } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { GoalForm } from './goal-form';
import { GoalItem } from './goal-item';
import type { GoalSummary } from '../vocabulary/goal-words';
import { CloseButton } from '../ui/close-button';
import './goals.css';

export function GoalsView({ goalId }: { goalId: string | null }) {
  const goals = useWorkspace((state) => state.workspace?.goals ?? null);
  const projects = useWorkspace((state) => state.workspace?.projects ?? null);
  const projectNames = useWorkspace((state) => state.projectNames);
  const readOnly = useKindReadOnly('goal');
  /** The create form, open for a project (null: the first one). */
  const [creating, setCreating] = useState<{ projectId: string | null } | null>(null);
  /** What the last create or delete did, said until the next one. */
  const [notice, setNotice] = useState<string | null>(null);
  // A goal created here keeps the React key it was first shown under once the server names it, so
  // its element (and a form open in it) stays; the open goal follows its new id (followRemapsOfView).
  const keyOf = useStableKeys();

  // A person cannot plan in an archived project (the service refuses new tasks there): goals are made in active ones.
  const archived = new Set((projects ?? []).filter((p) => p.status === 'archived').map((p) => p.project_id));
  const plannable = (projects ?? []).filter((p) => !archived.has(p.project_id));
  // Groups in the sidebar's order of projects (by name); a goal of a project not listed comes last.
  const byProject = new Map<string, GoalSummary[]>((projects ?? []).map((p) => [p.project_id, []]));
  for (const goal of goals ?? []) {
    const list = byProject.get(goal.project_id) ?? [];
    list.push(goal);
    byProject.set(goal.project_id, list);
  }
  const tell = (words: string) => {
    setNotice(words);
    announce(words);
  };

  return (
    <section className="goals-view" aria-labelledby="goals-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="goals-title">Goals</h1>
          <span className="list-count">{goals === null ? 'Loading…' : `${goals.length} goals`}</span>
          <span className="spacer" />
          <button
            type="button"
            className="button primary"
            disabled={readOnly || plannable.length === 0}
            onClick={() => setCreating({ projectId: null })}
          >
            New goal
          </button>
        </div>
        <KindConsentNotice kind="goal" plural="goals" />
        {/* In the header, seen wherever the list is scrolled; screen readers hear it once, from the app's live region. */}
        {notice === null ? null : (
          <div className="goal-notice">
            <p data-testid="goal-notice">{notice}</p>
            <CloseButton label="Dismiss" onClick={() => setNotice(null)} />
          </div>
        )}
      </header>
      <div className="goal-groups">
        {creating !== null ? (
          <GoalForm
            mode="create"
            projects={plannable}
            projectId={creating.projectId}
            onDone={(created) => {
              setCreating(null);
              if (created === null) return;
              tell(`Created ‘${created.name}’`);
              navigate({ kind: 'goals', goalId: created.id });
            }}
          />
        ) : null}
        {goals !== null && goals.length === 0 ? <p className="empty-state">No goals yet.</p> : null}
        {[...byProject.entries()].map(([projectId, list]) => {
          if (list.length === 0) return null;
          const projectName = projectNames.get(projectId) ?? projectId;
          return (
            <section key={projectId} className="goal-group" aria-label={projectName}>
              <div className="goal-group-title">
                <h2>{projectName}</h2>
                {archived.has(projectId) ? (
                  <span className="nav-badge" title="An archived project takes no new goals or tasks.">
                    archived
                  </span>
                ) : (
                  <button
                    type="button"
                    className="link-button"
                    aria-label={`New goal in ${projectName}`}
                    disabled={readOnly}
                    onClick={() => setCreating({ projectId })}
                  >
                    + New goal
                  </button>
                )}
              </div>
              <ul className="goal-list">
                {list.map((goal) => (
                  <GoalItem
                    key={keyOf(goal.goal_id)}
                    goal={goal}
                    selected={goal.goal_id === goalId}
                    readOnly={readOnly}
                    archived={archived.has(projectId)}
                    onDeleted={tell}
                  />
                ))}
              </ul>
            </section>
          );
        })}
      </div>
    </section>
  );
}

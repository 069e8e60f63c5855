// A sprint change the server refused, shown on the sprint as a fixable error:
// its answer in words, and for a name taken by another active sprint of the
// team (409) "Rename and retry" under the sprint's name rules.
import { useEffect, useState } from 'react';
import type { PendingChange } from '../../../main/ipc/outbox-schemas';
import { invoke, subscribe } from '../bridge/svc';
import { RefusedChanges } from '../pending-changes/refused-changes';
import type { NameRules } from '../pending-changes/rename-and-retry';
import { showProblem } from '../store/session-store';
import { SPRINT_NAME_MAX } from './sprint-draft';
import './sprints.css';

/** The waiting changes of one sprint (all of them while `active`), kept fresh while the outbox moves. */
export function useSprintChanges(sprintId: string, active: boolean): PendingChange[] {
  const [changes, setChanges] = useState<PendingChange[]>([]);
  useEffect(() => {
    if (!active) return;
    let cancelled = false;
    const load = () => {
      invoke('outbox:list')
        .then((list) => {
          if (cancelled) return;
          setChanges(list.changes.filter((c) => c.entity_type === 'sprint' && c.entity_id === sprintId));
        })
        .catch((error: unknown) => {
          if (!cancelled) showProblem(error, 'Reading the sprint’s waiting changes');
        });
    };
    load();
    const stops = [subscribe('mirror:changed', load), subscribe('sync:status-changed', load)];
    return () => {
      cancelled = true;
      for (const stop of stops) stop();
    };
  }, [sprintId, active]);
  // Nothing waits once the sprint has no mark; what was last read is not shown then.
  return active ? changes : [];
}

/** A sprint's name: 1 to SPRINT_NAME_MAX characters, none an active sprint of the team has (the service's 409). */
export const SPRINT_NAME_RULES: NameRules = {
  problem: (name) =>
    name === '' || name.length > SPRINT_NAME_MAX
      ? `A sprint name is 1 to ${SPRINT_NAME_MAX} characters.`
      : null,
  takenWords: () => 'Choose a name no active sprint of the team has.',
  sentWords: (name) => `Renamed to ‘${name}’ and sent again.`,
};

/** The sprint's refused changes, each with what can be done about it here. */
export function SprintRefusal({
  changes,
  sprintName,
}: {
  changes: readonly PendingChange[];
  sprintName: string;
}) {
  return (
    <RefusedChanges
      changes={changes.filter((c) => c.state === 'failed')}
      kind="sprint"
      currentName={sprintName}
      rules={SPRINT_NAME_RULES}
    />
  );
}

// A sprint change the server refused, shown on the sprint as a fixable error:
// its answer in words, and for a name taken by another active sprint of the
// team (409) "Rename and retry" under the sprint's name rules.
import { useMemo } from 'react';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import { RefusedChanges } from '../ui/refused-changes';
import { useOutboxChanges } from '../data/use-outbox-changes';
import { SPRINT_NAME_RULES } from '../vocabulary/name-rules';
import './sprints.css';

/** The waiting changes of one sprint (all of them while `active`), kept fresh while the outbox moves. */
export function useSprintChanges(sprintId: string, active: boolean): PendingChange[] {
  const changes = useOutboxChanges(active, 'Reading the sprint’s waiting changes');
  return useMemo(
    () => changes.filter((c) => c.entity_type === 'sprint' && c.entity_id === sprintId),
    [changes, sprintId],
  );
}

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

// A section change the server refused, shown in its column: the answer in
// words, and for a name another section of the scope took meanwhile (409, a
// peer's while we were offline) "Rename and retry" under the section name rules.
import { useMemo } from 'react';
import type { PendingChange } from '../../../ipc/outbox-schemas';
import { RefusedChanges } from '../ui/refused-changes';
import { useOutboxChanges } from '../data/use-outbox-changes';
import { sectionNameRules } from '../vocabulary/section-words';

/**
 * The refused section changes by section id, read while any section of the board is marked failed
 * (`active`), kept fresh while the outbox moves; nothing is read while none is.
 */
export function useSectionRefusals(active: boolean): ReadonlyMap<string, PendingChange[]> {
  const changes = useOutboxChanges(active, 'Reading the sections’ refused changes');
  return useMemo(() => {
    const bySection = new Map<string, PendingChange[]>();
    for (const change of changes) {
      if (change.entity_type !== 'section' || change.state !== 'failed' || !change.entity_id) continue;
      bySection.set(change.entity_id, [...(bySection.get(change.entity_id) ?? []), change]);
    }
    return bySection;
  }, [changes]);
}

/** The column's refused changes, each with what can be done about it in place. */
export function SectionRefusal({
  changes,
  sectionName,
  otherNames,
}: {
  changes: readonly PendingChange[];
  sectionName: string;
  /** The scope's other sections' names, the taker's among them once it is pulled. */
  otherNames: readonly string[];
}) {
  return (
    <RefusedChanges
      changes={changes}
      kind="section"
      currentName={sectionName}
      rules={sectionNameRules(otherNames)}
      stacked
    />
  );
}

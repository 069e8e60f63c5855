// Names of the milestones this window has read (the view, the editor's
// choice), so the pending-changes inspector can say "Milestone: — → ‘Beta’"
// instead of an id; milestones are listed per project, not in the workspace.
import { create } from 'zustand';
import type { MilestoneSummary } from '../../../main/ipc/screen-schemas';

export const useMilestoneNames = create<{ names: ReadonlyMap<string, string> }>(() => ({ names: new Map() }));

export function rememberMilestones(list: readonly MilestoneSummary[]): void {
  const { names } = useMilestoneNames.getState();
  if (list.every((m) => names.get(m.milestone_id) === m.name)) return;
  const next = new Map(names);
  for (const m of list) next.set(m.milestone_id, m.name);
  useMilestoneNames.setState({ names: next });
}

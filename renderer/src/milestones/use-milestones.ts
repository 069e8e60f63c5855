// A project's milestones as the mirror holds them (`milestones:list`, waiting
// changes applied, progress counted over the mirrored tasks), reloaded when
// milestones or tasks change, so a filing or a completion moves the bar at once.
import { useEffect, useState } from 'react';
import type { MilestoneSummary } from '../../../main/ipc/screen-schemas';
import { reloadOnMirrorChanges } from '../bridge/mirror-changes';
import { errorType, invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';

export function useProjectMilestones(projectId: string | null): MilestoneSummary[] | null {
  const [milestones, setMilestones] = useState<{ projectId: string; list: MilestoneSummary[] } | null>(null);
  useEffect(() => {
    if (projectId === null) return;
    let cancelled = false;
    const load = () => {
      invoke('milestones:list', { project_id: projectId })
        .then((list) => {
          if (!cancelled) setMilestones({ projectId, list });
        })
        .catch((error: unknown) => {
          if (!cancelled && errorType(error) !== 'signed-out') showProblem(error, 'Loading milestones');
        });
    };
    load();
    const stop = reloadOnMirrorChanges(['milestones', 'tasks'], load);
    return () => {
      cancelled = true;
      stop();
    };
  }, [projectId]);
  if (projectId === null) return [];
  // Another project's answer is never shown while this one's loads.
  return milestones?.projectId === projectId ? milestones.list : null;
}

// A project's milestones as the mirror holds them (`milestones:list`, waiting
// changes applied, progress counted over the mirrored tasks), reloaded when
// milestones or tasks change, so a filing or a completion moves the bar at once.
import { useEffect, useState } from 'react';
import type { MilestoneSummary } from '../../../main/ipc/screen-schemas';
import { errorType, invoke, subscribe } from '../bridge/svc';
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
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = subscribe('mirror:changed', (change) => {
      const relevant = change.collections.some((c) => c === 'milestones' || c === 'tasks');
      if (!relevant || timer !== null) return;
      // Coalesced: a sync landing many tasks reloads once.
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
  }, [projectId]);
  if (projectId === null) return [];
  // Another project's answer is never shown while this one's loads.
  return milestones?.projectId === projectId ? milestones.list : null;
}

// A project's milestones as the mirror holds them (`milestones:list`, waiting
// changes applied, progress counted over the mirrored tasks), reloaded when
// milestones or tasks change, so a filing or a completion moves the bar at once.
import type { MilestoneSummary } from '../../../ipc/screen-schemas';
import { errorType } from '../bridge/svc';
import { useBridgeRead } from './use-bridge-read';
import { showProblem } from '../store/session-store';

export function useProjectMilestones(projectId: string | null): MilestoneSummary[] | null {
  // Another project's answer is never shown while this one's loads.
  const read = useBridgeRead('milestones:list', projectId === null ? null : { project_id: projectId }, {
    reloadOn: { collections: ['milestones', 'tasks'] },
    onError: (error) => {
      if (errorType(error) !== 'signed-out') showProblem(error, 'Loading milestones');
    },
  });
  return projectId === null ? [] : read.data;
}

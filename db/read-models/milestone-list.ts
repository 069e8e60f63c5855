// A project's milestones as the milestones view shows them: from the mirror
// (offline too), in the project's order (position, then name), each with its
// progress counted over the mirrored tasks, so a task filed or completed
// offline moves the bar at once instead of when the service recounts.
import { z } from 'zod';
import type { Mirror } from '../mirror';
import { progressSummaryFields, progressSummaryOf } from './workspace';
import { textOf } from '../../protocol/wire-fields';

/** One of a project's milestones in the milestones view, with its progress over the mirrored tasks. */
export const milestoneSummarySchema = z.object({
  milestone_id: z.string(),
  ...progressSummaryFields,
  due_date: z.string().nullable(),
  position: z.number().nullable(),
});
export type MilestoneSummary = z.infer<typeof milestoneSummarySchema>;

export function projectMilestones(mirror: Mirror, projectId: string): MilestoneSummary[] {
  const counts = mirror.collections.milestoneCounts(projectId);
  return mirror.milestones
    .list()
    .filter((m) => m.project_id === projectId)
    .map((m): MilestoneSummary => {
      const id = String(m.milestone_id);
      return {
        milestone_id: id,
        ...progressSummaryOf(m, id, projectId, counts),
        due_date: textOf(m.due_date),
        position: typeof m.position === 'number' ? m.position : null,
      };
    })
    .sort(
      (a, b) =>
        (a.position ?? Number.POSITIVE_INFINITY) - (b.position ?? Number.POSITIVE_INFINITY) ||
        a.name.localeCompare(b.name) ||
        a.milestone_id.localeCompare(b.milestone_id),
    );
}

// A project's milestones as the milestones view shows them: from the mirror
// (offline too), in the project's order (position, then name), each with its
// progress counted over the mirrored tasks, so a task filed or completed
// offline moves the bar at once instead of when the service recounts.
import { z } from 'zod';
import type { Mirror } from '../mirror';
import { pendingMark, pendingSchema } from './workspace';
import { textOf } from '../../protocol/wire-fields';

/** One of a project's milestones in the milestones view, with its progress over the mirrored tasks. */
export const milestoneSummarySchema = z.object({
  milestone_id: z.string(),
  project_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  /** `open` or `completed`; more may exist (kept as sent). */
  status: z.string().nullable(),
  due_date: z.string().nullable(),
  position: z.number().nullable(),
  tasks_total: z.number().int(),
  tasks_completed: z.number().int(),
  pending: pendingSchema,
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
        project_id: projectId,
        name: textOf(m.name) ?? id,
        description: textOf(m.description),
        status: textOf(m.status),
        due_date: textOf(m.due_date),
        position: typeof m.position === 'number' ? m.position : null,
        tasks_total: counts.get(id)?.total ?? 0,
        tasks_completed: counts.get(id)?.completed ?? 0,
        ...pendingMark(m),
      };
    })
    .sort(
      (a, b) =>
        (a.position ?? Number.POSITIVE_INFINITY) - (b.position ?? Number.POSITIVE_INFINITY) ||
        a.name.localeCompare(b.name) ||
        a.milestone_id.localeCompare(b.milestone_id),
    );
}

// The answers grouped by project (`GET /v1/goals`, `GET /v1/milestones`): each
// group belongs to the project it names, else to that of its items (each item
// names it). A group with more items to read (`next_cursor`) must be continued
// under its project, so one naming none is refused; an empty, complete group
// naming none holds nothing and is left out.
import { z } from 'zod';

interface ProjectGroup {
  project_id?: string | null | undefined;
  /** The items, read or not yet (then the first one's project is read only if it is a string). */
  data: readonly unknown[];
  next_cursor: string | null;
}

/** The project an item names, when it is an object naming one. */
function projectOf(item: unknown): string | null | undefined {
  if (typeof item !== 'object' || item === null) return undefined;
  const projectId = (item as { project_id?: unknown }).project_id;
  return typeof projectId === 'string' ? projectId : undefined;
}

/** The groups of `group`, each with its project; `items` names what a group holds in the refusal ("goals"). */
export function projectGroupsSchema<T extends ProjectGroup>(group: z.ZodType<T>, items: string) {
  return z.array(group).transform((groups, ctx): (T & { project_id: string })[] => {
    const out: (T & { project_id: string })[] = [];
    groups.forEach((one, index) => {
      const projectId = one.project_id || projectOf(one.data[0]);
      if (projectId) out.push({ ...one, project_id: projectId });
      else if (one.next_cursor !== null) {
        ctx.issues.push({
          code: 'custom',
          path: [index, 'project_id'],
          message: `a group with more ${items} to read names no project`,
          input: one.project_id,
        });
      }
    });
    return out;
  });
}

// Milestones, listed per project (`GET /v1/projects/{project_id}/milestones`):
// one list per project the mirror holds, each its own pass with page ETags, so
// a milestone gone from one project's list is removed from that project only.
import { milestoneOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const milestonesResource = listResource({
  collection: 'milestones',
  needs: ['projects'],
  operation: milestoneOperations.list,
  scopes: async (ctx) =>
    (await ctx.store.ids('projects')).map((projectId) => ({ scope: projectId, params: { projectId } })),
  page: { limit: 1000 },
});

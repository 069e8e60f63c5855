// Milestones, listed per project (`GET /v1/projects/{project_id}/milestones`):
// one list per project the mirror holds, each its own pass with page ETags, so
// a milestone gone from one project's list is removed from that project only,
// and a project no longer listed has its milestones removed.
import { milestoneOperations } from '../../api/operations';
import { listResource, parentsListedNoMore } from './list-resource';

export const milestonesResource = listResource({
  collection: 'milestones',
  needs: ['projects'],
  operation: milestoneOperations.list,
  scopes: async (ctx) =>
    (await ctx.store.ids('projects')).map((projectId) => ({ scope: projectId, params: { projectId } })),
  page: { limit: 1000 },
  // A project listed no more takes its milestones with it.
  goneScopes: parentsListedNoMore('milestones', 'project_id'),
});

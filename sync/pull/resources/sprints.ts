// Sprints, listed per team (the contract has no organization-wide list): one
// list per team the mirror holds, each its own pass, so a sprint removed from
// one team's list is removed from that team only, and a team no longer listed
// has its sprints removed.
import { sprintOperations } from '../../api/operations';
import { listResource, parentsListedNoMore } from './list-resource';

export const sprintsResource = listResource({
  collection: 'sprints',
  needs: ['teams'],
  operation: sprintOperations.list,
  scopes: async (ctx) =>
    (await ctx.store.ids('teams')).map((teamId) => ({ scope: teamId, params: { teamId } })),
  page: { limit: 1000, sortBy: 'created_at', sortOrder: 'asc' },
  // A team listed no more (deleted, or the person left it) takes its sprints with it.
  goneScopes: parentsListedNoMore('sprints', 'team_id'),
});

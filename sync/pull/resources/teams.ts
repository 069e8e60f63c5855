// Teams of the organization (a guest sees only its own); sprints are listed per team after them.
import { teamOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const teamsResource = listResource({
  collection: 'teams',
  needs: ['me'],
  operation: teamOperations.list,
  scopes: (ctx) => Promise.resolve([{ scope: '', params: { orgId: ctx.orgId } }]),
  page: { limit: 1000 },
});

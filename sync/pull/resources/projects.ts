// Projects of the organization (archived ones included: tasks still point at them).
import { projectOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const projectsResource = listResource({
  collection: 'projects',
  needs: ['me'],
  operation: projectOperations.list,
  scopes: (ctx) => Promise.resolve([{ scope: '', params: { orgId: ctx.orgId } }]),
  page: { limit: 1000, sortBy: 'created_at', sortOrder: 'asc' },
});

// Organizations the token can see (one, for an organization token): the root of the dependency order.
import { organizationOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const organizationsResource = listResource({
  collection: 'organizations',
  needs: [],
  operation: organizationOperations.list,
  scopes: () => Promise.resolve([{ scope: '', params: {} }]),
  page: { limit: 1000 },
});

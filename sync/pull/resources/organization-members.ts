// Members of the organization: who an `assignee` username is.
import { organizationMemberOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const organizationMembersResource = listResource({
  collection: 'organization_members',
  needs: ['me'],
  operation: organizationMemberOperations.list,
  scopes: (ctx) => Promise.resolve([{ scope: '', params: { orgId: ctx.orgId } }]),
  page: { limit: 1000 },
});

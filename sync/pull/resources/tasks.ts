// Every task the caller can read, in the stable order gaps.md recommends
// (created_at ascending, ties by id) and the largest page the contract allows,
// so a full pass over 100 000 tasks costs 100 requests.
import { taskOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const TASK_PAGE = { limit: 1000, sortBy: 'created_at', sortOrder: 'asc' } as const;

export const tasksResource = listResource({
  collection: 'tasks',
  needs: ['me'],
  operation: taskOperations.list,
  scopes: (ctx) => Promise.resolve([{ scope: '', params: { orgId: ctx.orgId } }]),
  page: TASK_PAGE,
});

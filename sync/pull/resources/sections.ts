// Sections of every scope the caller can read (project, team and the caller's own), in one list.
import { sectionOperations } from '../../api/operations';
import { listResource } from './list-resource';

export const sectionsResource = listResource({
  collection: 'sections',
  needs: ['me'],
  operation: sectionOperations.list,
  scopes: (ctx) => Promise.resolve([{ scope: '', params: { orgId: ctx.orgId } }]),
  page: { limit: 1000 },
});

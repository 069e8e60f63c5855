// The read-only collections the client mirrors: organizations, projects and
// organization members (gaps.md, "Other collections"), each list paged with
// ETags and each single record readable with its ETag.
import type { FastifyInstance } from 'fastify';
import { type EmulatorContext, viewerFor } from '../emulator-context';
import { sendJson, sendKeyedList } from '../json-reply';
import { compareText, parseSort, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import type { OrganizationMemberRecord, ProjectRecord } from '../records';
import { canSeeProject } from '../store';

const PROJECT_SORT_KEYS = ['name', 'created_at'] as const;
const MEMBER_SORT_KEYS = ['username', 'email', 'role'] as const;

export function registerCollectionRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;

  app.get(
    '/v1/organizations',
    { config: { scope: 'members:read', operationId: 'organizations.list' } },
    (request, reply) => {
      const params = queryPairs(request.url);
      return sendKeyedList(ctx, request, reply, {
        queryKey: 'organizations',
        items: [store.org],
        order: parseSort(params, ['name'] as const, 'name').sortOrder,
        defaultLimit: 100,
        params,
        sortedBy: { value: (o) => o.name, id: (o) => o.org_id, compare: compareText },
        serialize: (o) => o,
      });
    },
  );

  app.get<{ Params: { org_id: string } }>(
    '/v1/organizations/:org_id',
    { config: { scope: 'members:read', operationId: 'organizations.get' } },
    (request, reply) => {
      if (request.params.org_id !== store.org.org_id) {
        throw new ProblemReply(404, null, 'Not Found', `organization ${request.params.org_id} not found`);
      }
      return sendJson(request, reply, 200, store.org);
    },
  );

  // One path, two operations: `GET /v1/projects/{org_id}` lists (contract), and the
  // same shape with a project id reads that project.
  app.get<{ Params: { project_id: string } }>(
    '/v1/projects/:project_id',
    { config: { scope: 'projects:read', operationId: 'projects.list' } },
    (request, reply) => {
      const viewer = viewerFor(ctx, request);
      const id = request.params.project_id;
      if (id !== store.org.org_id) {
        const project = store.projects.get(id);
        if (!project || !canSeeProject(viewer, id))
          throw new ProblemReply(404, null, 'Not Found', `project or organization ${id} not found`);
        return sendJson(request, reply, 200, project);
      }
      const params = queryPairs(request.url);
      const sort = parseSort(params, PROJECT_SORT_KEYS, 'name');
      return sendKeyedList(ctx, request, reply, {
        queryKey: `projects\u0000${viewer.visibilityKey}\u0000${sort.sortBy}\u0000${sort.sortOrder}`,
        items: [...store.projects.values()].filter((p) => canSeeProject(viewer, p.project_id)),
        order: sort.sortOrder,
        defaultLimit: 100,
        params,
        sortedBy: {
          value: (p: ProjectRecord) => p[sort.sortBy],
          id: (p) => p.project_id,
          compare: compareText,
        },
        serialize: (p) => p,
      });
    },
  );

  app.get<{ Params: { org_id: string } }>(
    '/v1/organization-members/:org_id',
    { config: { scope: 'members:read', operationId: 'organization-members.list' } },
    (request, reply) => {
      if (request.params.org_id !== store.org.org_id) {
        throw new ProblemReply(
          403,
          null,
          'Forbidden',
          `You are not a member of organization ${request.params.org_id}.`,
        );
      }
      const params = queryPairs(request.url);
      const sort = parseSort(params, MEMBER_SORT_KEYS, 'username');
      return sendKeyedList(ctx, request, reply, {
        queryKey: `members\u0000${sort.sortBy}\u0000${sort.sortOrder}`,
        items: [...store.members.values()],
        order: sort.sortOrder,
        defaultLimit: 100,
        params,
        sortedBy: {
          value: (m: OrganizationMemberRecord) => m[sort.sortBy],
          id: (m) => m.user_id,
          compare: compareText,
        },
        serialize: (m) => m,
      });
    },
  );
}

// Tasks: list (the whole filter table, cached pages) and a team's intake, get, create
// (Idempotency-Key), PATCH as JSON merge-patch with If-Match, the deprecated
// PUT, and DELETE with If-Match.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  InvalidParameterError,
  parseTaskListQuery,
  type TaskListQuery,
} from '../../protocol/task-list-query';
import { type EmulatorContext, orgListRequest, requireOwnOrg, viewerFor } from '../emulator-context';
import { checkIfMatch, pathOf, sendBody } from '../json-reply';
import { ProblemReply } from '../problem';
import { registerPatchAndPut } from './record-writes';
import { invalidParameter, parseLimit, parseOffset, queryPairs } from '../paging';
import {
  createTask,
  deleteTask,
  parseTaskCreate,
  parseTaskPatch,
  patchTask,
  readableTask,
} from '../task-changes';

interface TaskParams {
  task_id: string;
}

export function parseTaskQuery(params: URLSearchParams): TaskListQuery {
  try {
    return parseTaskListQuery(params);
  } catch (error) {
    if (error instanceof InvalidParameterError)
      throw invalidParameter(error.loc[1] ?? 'query', error.message, error.allowed);
    throw error;
  }
}

/** `required` alone when the caller asked for it or for nothing on that key; else nothing matches. */
function within(values: string[] | undefined, required: string): string[] {
  return values === undefined || values.includes(required) ? [required] : [];
}

/** A page of the tasks `query` matches, as `GET /v1/tasks` answers it (limit, cursor, offset, faults). */
function sendTaskPage(
  ctx: EmulatorContext,
  request: FastifyRequest,
  reply: FastifyReply,
  params: URLSearchParams,
  query: TaskListQuery,
) {
  const viewer = viewerFor(ctx, request);
  const limit = parseLimit(params.get('limit'), 100);
  const cursor = params.get('cursor');
  const offset = cursor === null ? parseOffset(params.get('offset')) : 0;
  const short = ctx.faults.take('short-page', request.method, pathOf(request.url), request.url);
  const page = ctx.tasks.page({
    viewer,
    query,
    limit,
    cursor,
    offset,
    ...(short ? { shortPage: short.pageSize ?? 1 } : {}),
  });
  return sendBody(request, reply, 200, page.body, page.etag);
}

export function registerTaskRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  app.get('/v1/tasks', { config: { scope: 'tasks:read', operationId: 'tasks.list' } }, (request, reply) => {
    const { params } = orgListRequest(ctx, request);
    return sendTaskPage(ctx, request, reply, params, parseTaskQuery(params));
  });

  // A team's intake (gaps.md "Team intake"): the task list narrowed to the team's tasks waiting for
  // review. A filter the caller sends on team or review narrows it further, never widens it.
  app.get<{ Params: { team_id: string } }>(
    '/v1/teams/:team_id/intake',
    { config: { scope: 'tasks:read', operationId: 'teams.list_tasks' } },
    (request, reply) => {
      const teamId = request.params.team_id;
      if (!ctx.store.teams.has(teamId))
        throw new ProblemReply(404, null, 'Not Found', `team ${teamId} not found`);
      const params = queryPairs(request.url);
      const query = parseTaskQuery(params);
      const filter = {
        ...query.filter,
        team: within(query.filter.team, teamId),
        review: within(query.filter.review, 'pending'),
      };
      return sendTaskPage(ctx, request, reply, params, { ...query, filter });
    },
  );

  app.get<{ Params: TaskParams }>(
    '/v1/tasks/:task_id',
    { config: { scope: 'tasks:read', operationId: 'tasks.get' } },
    (request, reply) => {
      const entry = readableTask(ctx.store, viewerFor(ctx, request), request.params.task_id);
      return sendBody(request, reply, 200, entry.bytes, entry.etag);
    },
  );

  app.post(
    '/v1/tasks',
    { config: { scope: 'tasks:write', operationId: 'tasks.create', idempotent: true } },
    (request, reply) => {
      const input = parseTaskCreate(request.body, ctx.variance !== null);
      requireOwnOrg(ctx, input.org_id, ['body', 'org_id']);
      const entry = createTask(ctx.store, viewerFor(ctx, request), input);
      reply.header('location', `/v1/tasks/${entry.record.task_id}`);
      return sendBody(request, reply, 201, entry.bytes, entry.etag);
    },
  );

  const update = (request: FastifyRequest<{ Params: TaskParams }>, reply: FastifyReply) => {
    const viewer = viewerFor(ctx, request);
    const entry = readableTask(ctx.store, viewer, request.params.task_id);
    checkIfMatch(request, entry.etag);
    patchTask(ctx.store, viewer, entry, parseTaskPatch(request.body, ctx.variance !== null));
    return sendBody(request, reply, 200, entry.bytes, entry.etag);
  };
  registerPatchAndPut(app, '/v1/tasks/:task_id', 'tasks:write', 'tasks', update);

  app.delete<{ Params: TaskParams }>(
    '/v1/tasks/:task_id',
    { config: { scope: 'tasks:write', operationId: 'tasks.delete' } },
    (request, reply) => {
      const viewer = viewerFor(ctx, request);
      const entry = readableTask(ctx.store, viewer, request.params.task_id);
      checkIfMatch(request, entry.etag);
      deleteTask(ctx.store, viewer, entry);
      return reply.code(204).send();
    },
  );
}

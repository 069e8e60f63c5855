// Saved views and view pins (gaps.md "Saved views and view pins"). A view is
// read by its creator, and by everyone in the organization once shared; only
// its creator or an organization owner or admin changes or deletes it (403),
// and a creator's view names are unique (409). Its rows are the task list's
// answer to its filters and sort. Pins are the caller's own: a view pinned
// once (409), moved by `position`, and removed with their view.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  type ViewFilters,
  viewCreateBodySchema,
  viewUpdateBodySchema,
  type ViewCreateBody,
  viewTaskListParams,
} from '../../protocol/view';
import { viewPinCreateBodySchema, viewPinUpdateBodySchema } from '../../protocol/view-pin';
import { fieldProblem, parseOr422 } from '../body-validation';
import { type EmulatorContext, orgListRequest, requireOwnOrg, viewerFor } from '../emulator-context';
import { etagOfJson } from '../entity-tag';
import { checkIfMatch, sendBody, sendJson, sendKeyedList } from '../json-reply';
import { compareNumber, compareText, parseLimit, positionAfter, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { collectionKey } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { authored, sendCreated, storeCreated, storeIfChanged } from './record-writes';
import { parseTaskQuery } from './tasks';

export interface ViewRecord {
  view_id: string;
  org_id: string;
  name: string;
  visibility: 'private' | 'shared';
  filters: ViewFilters;
  sort_by: string;
  sort_order: string;
  group_by: string | null;
  layout: string;
  created_by: string | null;
  updated_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface ViewPinRecord {
  pin_id: string;
  view_id: string;
  user_id: string;
  position: number;
  created_at: string;
}

export const VIEWS = collectionKey<ViewRecord>('views');
export const VIEW_PINS = collectionKey<ViewPinRecord>('view_pins');

function canRead(viewer: Viewer, view: ViewRecord): boolean {
  return view.visibility === 'shared' || view.created_by === viewer.username;
}

function canChange(viewer: Viewer, view: ViewRecord): boolean {
  return view.created_by === viewer.username || viewer.member.role !== 'member';
}

function readableView(store: EmulatorStore, viewer: Viewer, viewId: string): ViewRecord {
  const view = store.records(VIEWS).get(viewId);
  if (!view || !canRead(viewer, view))
    throw new ProblemReply(404, null, 'Not Found', `view ${viewId} not found`);
  return view;
}

function changeableView(store: EmulatorStore, viewer: Viewer, viewId: string): ViewRecord {
  const view = readableView(store, viewer, viewId);
  if (!canChange(viewer, view))
    throw new ProblemReply(
      403,
      null,
      'Forbidden',
      `Only the creator of view '${view.name}' or an admin may change it.`,
    );
  return view;
}

/** 409 when the creator already has a view of this name (another one than `exceptId`). */
function requireUniqueName(
  store: EmulatorStore,
  creator: string | null,
  name: string,
  exceptId?: string,
): void {
  for (const view of store.records(VIEWS).values()) {
    if (view.created_by === creator && view.name === name && view.view_id !== exceptId)
      throw new ProblemReply(409, null, 'Conflict', `You already have a view named '${name}'.`);
  }
}

/** 422 naming the filter or sort the task list would refuse, so that a stored view always has rows. */
function checkQuery(view: { filters: ViewFilters; sort_by: string; sort_order: string }): void {
  try {
    parseTaskQuery(viewTaskListParams(view));
  } catch (error) {
    if (error instanceof ProblemReply) throw fieldProblem(['body', 'filters'], error.message);
    throw error;
  }
}

/** RFC 7396 on the filters: a key set to null is removed, any other replaced, the rest kept. */
function mergeFilters(filters: ViewFilters, patch: Record<string, string[] | null>): ViewFilters {
  const next: ViewFilters = { ...filters };
  for (const [key, values] of Object.entries(patch)) {
    if (values === null) delete next[key];
    else next[key] = values;
  }
  return next;
}

export function registerViewRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  type ViewParams = { Params: { view_id: string } };
  type PinParams = { Params: { pin_id: string } };

  const requested = (request: FastifyRequest<ViewParams>) => {
    const viewer = viewerFor(ctx, request);
    return { viewer, view: readableView(store, viewer, request.params.view_id) };
  };

  /** Who asks, and the view the path names, theirs to change and unchanged since `If-Match` (403, 404, 412). */
  const viewToChange = (request: FastifyRequest<ViewParams>) => {
    const viewer = viewerFor(ctx, request);
    const view = changeableView(store, viewer, request.params.view_id);
    checkIfMatch(request, etagOfJson(view));
    return { viewer, view };
  };

  app.get('/v1/views', { config: { scope: 'tasks:read', operationId: 'views.list' } }, (request, reply) => {
    const { params, viewer } = orgListRequest(ctx, request);
    return sendKeyedList(ctx, request, reply, {
      queryKey: `views\u0000${viewer.username}`,
      items: [...store.records(VIEWS).values()].filter((view) => canRead(viewer, view)),
      order: 'asc',
      defaultLimit: 100,
      params,
      sortedBy: { value: (view) => view.name, id: (view) => view.view_id, compare: compareText },
      serialize: (view) => view,
    });
  });

  app.get<ViewParams>(
    '/v1/views/:view_id',
    { config: { scope: 'tasks:read', operationId: 'views.get' } },
    (request, reply) => sendJson(request, reply, 200, requested(request).view),
  );

  app.get<ViewParams>(
    '/v1/views/:view_id/rows',
    { config: { scope: 'tasks:read', operationId: 'views.rows' } },
    (request, reply) => {
      const { viewer, view } = requested(request);
      const params = queryPairs(request.url);
      const page = ctx.tasks.page({
        viewer,
        query: parseTaskQuery(viewTaskListParams(view)),
        limit: parseLimit(params.get('limit'), 100),
        cursor: params.get('cursor'),
        offset: 0,
      });
      return sendBody(request, reply, 200, page.body, page.etag);
    },
  );

  app.post(
    '/v1/views',
    { config: { scope: 'tasks:write', operationId: 'views.create', idempotent: true } },
    (request, reply) => {
      const input: ViewCreateBody = parseOr422(viewCreateBodySchema, request.body, 'body');
      requireOwnOrg(ctx, input.org_id, ['body', 'org_id']);
      const viewer = viewerFor(ctx, request);
      requireUniqueName(store, viewer.username, input.name);
      const now = store.nowIso();
      const { created_by, updated_by, created_at, updated_at } = authored(viewer, now);
      const view: ViewRecord = {
        view_id: store.newId('view'),
        org_id: store.org.org_id,
        name: input.name,
        visibility: input.visibility ?? 'private',
        filters: input.filters ?? {},
        sort_by: input.sort_by ?? 'title',
        sort_order: input.sort_order ?? 'asc',
        group_by: input.group_by ?? null,
        layout: input.layout ?? 'list',
        created_by,
        updated_by,
        created_at,
        updated_at,
      };
      checkQuery(view);
      storeCreated(store, VIEWS, view.view_id, view);
      return sendCreated(request, reply, `/v1/views/${view.view_id}`, { ...view });
    },
  );

  app.patch<ViewParams>(
    '/v1/views/:view_id',
    { config: { scope: 'tasks:write', operationId: 'views.update' } },
    (request, reply) => {
      const { viewer, view } = viewToChange(request);
      const patch = parseOr422(viewUpdateBodySchema, request.body, 'body');
      const { filters, ...fields } = patch;
      const next: ViewRecord = { ...view };
      for (const [field, value] of Object.entries(fields))
        if (value !== undefined) Object.assign(next, { [field]: value });
      if (filters !== undefined) next.filters = mergeFilters(view.filters, filters);
      if (patch.name !== undefined) requireUniqueName(store, view.created_by, patch.name, view.view_id);
      checkQuery(next);
      storeIfChanged(store, store.records(VIEWS), next.view_id, view, next, viewer);
      return sendJson(request, reply, 200, store.records(VIEWS).get(next.view_id));
    },
  );

  app.delete<ViewParams>(
    '/v1/views/:view_id',
    { config: { scope: 'tasks:write', operationId: 'views.delete' } },
    (request, reply) => {
      const { view } = viewToChange(request);
      store.records(VIEWS).delete(view.view_id);
      const pins = store.records(VIEW_PINS);
      for (const pin of [...pins.values()]) if (pin.view_id === view.view_id) pins.delete(pin.pin_id);
      store.touch();
      return reply.code(204).send();
    },
  );

  /** The caller's pin the path names (404 when it is someone else's, or its view is out of their reach). */
  const ownPin = (request: FastifyRequest<PinParams>) => {
    const viewer = viewerFor(ctx, request);
    const pin = store.records(VIEW_PINS).get(request.params.pin_id);
    const view = pin === undefined ? undefined : store.records(VIEWS).get(pin.view_id);
    if (!pin || pin.user_id !== viewer.member.user_id || !view || !canRead(viewer, view))
      throw new ProblemReply(404, null, 'Not Found', `view pin ${request.params.pin_id} not found`);
    return { viewer, pin };
  };

  app.get(
    '/v1/view-pins',
    { config: { scope: 'tasks:read', operationId: 'view-pins.list' } },
    (request, reply) => {
      const { params, viewer } = orgListRequest(ctx, request);
      const views = store.records(VIEWS);
      return sendKeyedList(ctx, request, reply, {
        queryKey: `view-pins\u0000${viewer.username}`,
        items: [...store.records(VIEW_PINS).values()].filter((pin) => {
          const view = views.get(pin.view_id);
          return pin.user_id === viewer.member.user_id && view !== undefined && canRead(viewer, view);
        }),
        order: 'asc',
        defaultLimit: 100,
        params,
        sortedBy: { value: (pin) => pin.position, id: (pin) => pin.pin_id, compare: compareNumber },
        serialize: (pin) => pin,
      });
    },
  );

  app.get<PinParams>(
    '/v1/view-pins/:pin_id',
    { config: { scope: 'tasks:read', operationId: 'view-pins.get' } },
    (request, reply) => sendJson(request, reply, 200, ownPin(request).pin),
  );

  app.post(
    '/v1/view-pins',
    { config: { scope: 'tasks:write', operationId: 'view-pins.create', idempotent: true } },
    (request, reply) => {
      const input = parseOr422(viewPinCreateBodySchema, request.body, 'body');
      requireOwnOrg(ctx, input.org_id, ['body', 'org_id']);
      const viewer = viewerFor(ctx, request);
      const view = store.records(VIEWS).get(input.view_id);
      if (!view || !canRead(viewer, view))
        throw fieldProblem(['body', 'view_id'], `view ${input.view_id} not found`);
      const userId = viewer.member.user_id;
      for (const pin of store.records(VIEW_PINS).values()) {
        if (pin.user_id === userId && pin.view_id === view.view_id)
          throw new ProblemReply(409, null, 'Conflict', `View '${view.name}' is already pinned.`);
      }
      const pin: ViewPinRecord = {
        pin_id: store.newId('pin'),
        view_id: view.view_id,
        user_id: userId,
        position:
          input.position ??
          positionAfter([...store.records(VIEW_PINS).values()].filter((p) => p.user_id === userId)),
        created_at: store.nowIso(),
      };
      storeCreated(store, VIEW_PINS, pin.pin_id, pin);
      return sendCreated(request, reply, `/v1/view-pins/${pin.pin_id}`, { ...pin });
    },
  );

  app.patch<PinParams>(
    '/v1/view-pins/:pin_id',
    { config: { scope: 'tasks:write', operationId: 'view-pins.update' } },
    (request, reply) => {
      const { pin } = ownPin(request);
      checkIfMatch(request, etagOfJson(pin));
      const patch = parseOr422(viewPinUpdateBodySchema, request.body, 'body');
      if (patch.position !== undefined && patch.position !== pin.position) {
        store.records(VIEW_PINS).set(pin.pin_id, { ...pin, position: patch.position });
        store.touch();
      }
      return sendJson(request, reply, 200, store.records(VIEW_PINS).get(pin.pin_id));
    },
  );

  app.delete<PinParams>(
    '/v1/view-pins/:pin_id',
    { config: { scope: 'tasks:write', operationId: 'view-pins.delete' } },
    (request, reply) => {
      const { pin } = ownPin(request);
      checkIfMatch(request, etagOfJson(pin));
      store.records(VIEW_PINS).delete(pin.pin_id);
      store.touch();
      return reply.code(204).send();
    },
  );
}

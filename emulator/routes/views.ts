// Saved views and view pins (gaps.md "Saved views and view pins"). A view is
// read by its creator, and by everyone in the organization once shared; only
// its creator or an organization owner or admin changes or deletes it (403),
// and a creator's view names are unique (409). Its rows are the task list's
// answer to its filters and sort. Pins are the caller's own: a view pinned
// once (409), moved by `position`, and removed with their view.
import type { FastifyInstance } from 'fastify';
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
import { sendBody, sendKeyedList } from '../json-reply';
import { compareNumber, compareText, parseLimit, positionAfter, queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { collectionKey } from '../records';
import type { EmulatorStore, Viewer } from '../store';
import { type FoundRecord, recordRoutes } from './record-routes';
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

function readableView(
  store: EmulatorStore,
  viewer: Viewer,
  { view_id: viewId }: { view_id: string },
): ViewRecord {
  const view = store.records(VIEWS).get(viewId);
  if (!view || !canRead(viewer, view))
    throw new ProblemReply(404, null, 'Not Found', `view ${viewId} not found`);
  return view;
}

/** 403 unless the viewer created the view or is an organization owner or admin. */
function requireChanger({ viewer, record: view }: FoundRecord<ViewRecord>): void {
  if (!canChange(viewer, view))
    throw new ProblemReply(
      403,
      null,
      'Forbidden',
      `Only the creator of view '${view.name}' or an admin may change it.`,
    );
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

/** The caller's pin the path names (404 when it is someone else's, or its view is out of their reach). */
function ownPin(store: EmulatorStore, viewer: Viewer, { pin_id: pinId }: { pin_id: string }): ViewPinRecord {
  const pin = store.records(VIEW_PINS).get(pinId);
  const view = pin === undefined ? undefined : store.records(VIEWS).get(pin.view_id);
  if (!pin || pin.user_id !== viewer.member.user_id || !view || !canRead(viewer, view))
    throw new ProblemReply(404, null, 'Not Found', `view pin ${pinId} not found`);
  return pin;
}

export function registerViewRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store } = ctx;
  const views = recordRoutes(app, ctx, '/v1/views/:view_id', { scope: 'tasks', find: readableView });

  views.list((request, reply) => {
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

  views.get();

  app.get<{ Params: { view_id: string } }>(
    '/v1/views/:view_id/rows',
    { config: { scope: 'tasks:read', operationId: 'views.rows' } },
    (request, reply) => {
      const { viewer, record: view } = views.find(request);
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

  views.create((request, reply) => {
    const input: ViewCreateBody = parseOr422(viewCreateBodySchema, request.body, 'body');
    requireOwnOrg(ctx, input.org_id, ['body', 'org_id']);
    const viewer = viewerFor(ctx, request);
    requireUniqueName(store, viewer.username, input.name);
    const { created_by, updated_by, created_at, updated_at } = authored(viewer, store.nowIso());
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
  });

  views.update(
    { body: viewUpdateBodySchema, mayChange: requireChanger },
    ({ viewer, record: view, patch }) => {
      const { filters, ...fields } = patch;
      const next: ViewRecord = { ...view };
      for (const [field, value] of Object.entries(fields))
        if (value !== undefined) Object.assign(next, { [field]: value });
      if (filters !== undefined) next.filters = mergeFilters(view.filters, filters);
      if (patch.name !== undefined) requireUniqueName(store, view.created_by, patch.name, view.view_id);
      checkQuery(next);
      storeIfChanged(store, store.records(VIEWS), next.view_id, view, next, viewer);
      return next;
    },
  );

  views.delete({ mayChange: requireChanger }, (request, reply, { record: view }) => {
    store.records(VIEWS).delete(view.view_id);
    const pins = store.records(VIEW_PINS);
    for (const pin of [...pins.values()]) if (pin.view_id === view.view_id) pins.delete(pin.pin_id);
    store.touch();
    return reply.code(204).send();
  });

  const pins = recordRoutes(app, ctx, '/v1/view-pins/:pin_id', { scope: 'tasks', find: ownPin });

  pins.list((request, reply) => {
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
  });

  pins.get();

  pins.create((request, reply) => {
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
  });

  pins.update({ body: viewPinUpdateBodySchema }, ({ record: pin, patch }) => {
    if (patch.position === undefined || patch.position === pin.position) return pin;
    const next = { ...pin, position: patch.position };
    store.records(VIEW_PINS).set(pin.pin_id, next);
    store.touch();
    return next;
  });

  pins.delete((request, reply, { record: pin }) => {
    store.records(VIEW_PINS).delete(pin.pin_id);
    store.touch();
    return reply.code(204).send();
  });
}

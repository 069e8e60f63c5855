// The operations of one kind of the organization's records, registered the
// same way for every kind: an operation's id is the kind's name and a verb
// (`goals.get`), a read needs the kind's read scope and a write its write
// scope, the list and the idempotent create are at the path above a record's,
// a GET of one record answers its body with that body's ETag, and a change or
// delete is held by `If-Match` to that same ETag (412) before its body is read
// (422). Each kind says only how it finds a record and shows it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { parseOr422 } from '../body-validation';
import { type EmulatorContext, viewerFor } from '../emulator-context';
import { etagOfJson } from '../entity-tag';
import { checkIfMatch, sendJson } from '../json-reply';
import type { EmulatorStore, Viewer } from '../store';
import { registerPatchAndPut } from './record-writes';

type Handler<Params> = (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => FastifyReply;

/** Who asks, and the record a path names. */
export interface FoundRecord<R> {
  viewer: Viewer;
  record: R;
}

/** Throws (403) when the viewer may read the record but not make this change to it. */
type MayChange<R> = (found: FoundRecord<R>) => void;

type DeleteHandler<Params, R> = (
  request: FastifyRequest<{ Params: Params }>,
  reply: FastifyReply,
  found: FoundRecord<R>,
) => FastifyReply;

export interface RecordKind<Params, R> {
  /** The first word of the scopes: reads need `<scope>:read`, writes `<scope>:write`. */
  scope: string;
  /** The record the path names (a 404 when it is out of the viewer's reach). */
  find: (store: EmulatorStore, viewer: Viewer, params: Params) => R;
  /** The record as a GET shows it (as stored unless given); `If-Match` is held to this body's ETag. */
  serialize?: (store: EmulatorStore, viewer: Viewer, record: R) => unknown;
}

export interface RecordRoutes<Params, R> {
  /** Who asks and the record the path names, for the kind's own further routes. */
  find(request: FastifyRequest<{ Params: Params }>): FoundRecord<R>;
  /** GET of the list, at the path above a record's. */
  list<ListParams>(handler: Handler<ListParams>): void;
  /** GET of one record: its body and ETag. */
  get(): void;
  /** POST to the path above a record's, idempotent with `Idempotency-Key`. */
  create<CreateParams>(handler: Handler<CreateParams>): void;
  /**
   * PATCH of one record (and the deprecated PUT of the same partial update
   * where the contract keeps one): `change` gets the record, unchanged since
   * `If-Match`, and the body as `body` reads it, stores the change and returns
   * the record as it now is, which the answer shows.
   */
  update<S extends z.ZodType>(
    options: { body: S; mayChange?: MayChange<R>; deprecatedPut?: boolean },
    change: (found: FoundRecord<R> & { patch: z.infer<S> }) => R,
  ): void;
  /** DELETE of one record: `handle` gets the record, unchanged since `If-Match`. */
  delete(handle: DeleteHandler<Params, R>): void;
  delete(options: { mayChange: MayChange<R> }, handle: DeleteHandler<Params, R>): void;
}

/**
 * The routes of the kind whose records are at `path`, such as
 * `/v1/projects/:project_id/goals/:goal_id`; the operation ids are named after
 * the collection above it (`goals.get`).
 */
export function recordRoutes<Params, R>(
  app: FastifyInstance,
  ctx: EmulatorContext,
  path: string,
  kind: RecordKind<Params, R>,
): RecordRoutes<Params, R> {
  const { store } = ctx;
  const serialize = kind.serialize ?? ((_store: EmulatorStore, _viewer: Viewer, record: R) => record);
  const collectionPath = path.slice(0, path.lastIndexOf('/'));
  const resource = collectionPath.slice(collectionPath.lastIndexOf('/') + 1);
  const read = (verb: string) => ({
    config: { scope: `${kind.scope}:read`, operationId: `${resource}.${verb}` },
  });
  const write = (verb: string) => ({
    config: { scope: `${kind.scope}:write`, operationId: `${resource}.${verb}` },
  });
  const find = (request: FastifyRequest<{ Params: Params }>): FoundRecord<R> => {
    const viewer = viewerFor(ctx, request);
    return { viewer, record: kind.find(store, viewer, request.params as Params) };
  };
  /** The record the path names, when the viewer may change it (403) and it is unchanged since `If-Match` (412). */
  const toChange = (request: FastifyRequest<{ Params: Params }>, mayChange?: MayChange<R>) => {
    const found = find(request);
    mayChange?.(found);
    checkIfMatch(request, etagOfJson(serialize(store, found.viewer, found.record)));
    return found;
  };
  return {
    find,
    list<ListParams>(handler: Handler<ListParams>) {
      app.get<{ Params: ListParams }>(collectionPath, read('list'), handler);
    },
    get() {
      app.get<{ Params: Params }>(path, read('get'), (request, reply) => {
        const { viewer, record } = find(request);
        return sendJson(request, reply, 200, serialize(store, viewer, record));
      });
    },
    create<CreateParams>(handler: Handler<CreateParams>) {
      app.post<{ Params: CreateParams }>(
        collectionPath,
        { config: { ...write('create').config, idempotent: true } },
        handler,
      );
    },
    update(options, change) {
      const update: Handler<Params> = (request, reply) => {
        const found = toChange(request, options.mayChange);
        const next = change({ ...found, patch: parseOr422(options.body, request.body, 'body') });
        return sendJson(request, reply, 200, serialize(store, found.viewer, next));
      };
      if (options.deprecatedPut) registerPatchAndPut(app, path, `${kind.scope}:write`, resource, update);
      else app.patch<{ Params: Params }>(path, write('update'), update);
    },
    delete(...args: [DeleteHandler<Params, R>] | [{ mayChange: MayChange<R> }, DeleteHandler<Params, R>]) {
      const [options, handle] = args.length === 1 ? [{}, args[0]] : args;
      app.delete<{ Params: Params }>(path, write('delete'), (request, reply) =>
        handle(request, reply, toChange(request, options.mayChange)),
      );
    },
  };
}

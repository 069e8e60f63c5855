// What the write routes of the organization's own records (sections, sprints,
// goals, milestones, teams, tasks, comments) share: the authorship stamps of a
// new record, storing and counting it, the 201 answer with its Location,
// the fields a PATCH gives, storing an update only when it changed something, and the PATCH with its
// deprecated PUT. Apart from each route file so that every resource writes
// the same way.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { markDeprecated, pathOf, sendBody } from '../json-reply';
import type { CollectionKey } from '../records';
import type { EmulatorStore, Viewer } from '../store';

/** The authorship fields of a record the viewer creates now, in the records' field order. */
export function authored(viewer: Viewer, now: string) {
  return { created_by: viewer.username, updated_by: viewer.username, created_at: now, updated_at: now };
}

/** Stores a record a POST made and counts it in `store.creates` (the control API reports the counts). */
export function storeCreated<R>(store: EmulatorStore, key: CollectionKey<R>, id: string, record: R): void {
  store.records(key).set(id, record);
  store.creates[key.collection] += 1;
  store.touch();
}

/** 201 with the new resource's path in `Location` and its body (and ETag). */
export function sendCreated(
  request: FastifyRequest,
  reply: FastifyReply,
  location: string,
  body: Record<string, unknown>,
): FastifyReply {
  reply.header('location', location);
  return sendBody(request, reply, 201, JSON.stringify(body));
}

/** Sets on `next` each of `fields` that the PATCH body gives (a field it omits stays as it was). */
export function assignDefined<R, K extends keyof R>(
  next: R,
  patch: { [F in K]?: R[F] | undefined },
  fields: readonly K[],
): void {
  for (const field of fields) {
    const value = patch[field];
    if (value !== undefined) next[field] = value;
  }
}

/**
 * Stores `next`, stamped as updated by the viewer at `now`, when it differs
 * from `before` in any field; an update that changes nothing leaves the record,
 * its ETag and the store's version as they were.
 */
export function storeIfChanged<R extends { updated_at: string; updated_by: string | null }>(
  store: EmulatorStore,
  records: Map<string, R>,
  id: string,
  before: R,
  next: R,
  viewer: Viewer,
  now: string = store.nowIso(),
): void {
  if (JSON.stringify(next) === JSON.stringify(before)) return;
  next.updated_at = now;
  next.updated_by = viewer.username;
  records.set(id, next);
  store.touch();
}

/**
 * Registers a resource's PATCH at `path` and its deprecated PUT, the same
 * partial update (omitted fields stay) answered with the deprecation headers
 * that name the PATCH at the same path as its successor.
 */
export function registerPatchAndPut<Params>(
  app: FastifyInstance,
  path: string,
  scope: string,
  resource: string,
  update: (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => FastifyReply,
): void {
  app.patch<{ Params: Params }>(path, { config: { scope, operationId: `${resource}.update` } }, update);
  app.put<{ Params: Params }>(
    path,
    { config: { scope, operationId: `${resource}.replace`, deprecated: true } },
    (request, reply) => {
      markDeprecated(reply, pathOf(request.url));
      return update(request, reply);
    },
  );
}

// What the push tests of the kinds written in the app (goals, milestones,
// sprints, sections, comments) share: the writes the service answered for one
// kind, a second person's client, an edit made elsewhere over the current
// version, the rename race settled in the three-way view, the seed's team and
// projects they write under, a fresh server copy, and a create pushed to land.
import { expect } from 'vitest';
import type { ApiClient } from '../../api/api-client';
import {
  projectOperations,
  type ReadOperation,
  taskCommentOperations,
  teamOperations,
  type UpdateOperation,
} from '../../api/operations';
import type { WritableKind } from '../../../protocol/writable-kind';
import type { PushFixture } from './push-fixture';

/** The writes the emulator answered on paths `onPath` accepts, as "METHOD status" in order. */
export function writesTo(f: PushFixture, onPath: (path: string) => boolean): string[] {
  return f.emulator.control
    .requests()
    .filter((r) => r.method !== 'GET' && onPath(r.path))
    .map((r) => `${r.method} ${r.status}`);
}

/** An API client of the emulator's peer (grace) with `scopes`. */
export function peerClient(f: PushFixture, scopes: string[]): ApiClient {
  return f.apiWith(f.emulator.control.mintToken({ principalUserId: f.emulator.peer.user_id, scopes }).token);
}

/** `api` (another person or device) reads the resource and writes `patch` over the version it read. */
export async function editElsewhere<Body, Patch, Params>(
  api: ApiClient,
  read: ReadOperation<Body, Params>,
  update: UpdateOperation<Body, Patch, Params>,
  params: Params,
  patch: Patch,
): Promise<void> {
  const current = await api.read(read, params);
  await api.update(update, params, patch, { ifMatch: current.etag });
}

/** `api` (another person or device) rewrites the comment over the version it read. */
export function commentRewrittenElsewhere(api: ApiClient, commentId: string, content: string): Promise<void> {
  return editElsewhere(
    api,
    taskCommentOperations.get,
    taskCommentOperations.update,
    { commentId },
    { content },
  );
}

/**
 * After the peer renamed it on the server: the edit waiting here is pushed into
 * exactly one conflict, on the name, with the three values given; the person
 * takes `take` and the next push sends what that leaves, leaving nothing waiting.
 */
export async function settleNameConflict(
  f: PushFixture,
  names: { entityType: string; base: string; mine: string; theirs: string },
  take: 'mine' | 'theirs',
): Promise<void> {
  expect(await f.pusher.pushAll()).toMatchObject({ conflicts: 1 });
  const conflicts = f.mirror.outbox.conflicts('open');
  expect(conflicts).toEqual([expect.objectContaining({ ...names, field: 'name' })]);
  f.mirror.outbox.resolve(conflicts[0]?.conflictId as string, { take });
  await f.pusher.pushAll();
  expect(f.mirror.outbox.list(['queued', 'conflict', 'failed'])).toEqual([]);
}

/** The team the peer (grace) is a member of. */
export async function platformTeam(f: PushFixture): Promise<string> {
  const page = await f.api.listPage(teamOperations.list, { orgId: f.emulator.orgId }, { limit: 100 });
  if (page.status !== 200) throw new Error('teams.list answered 304');
  const team = page.body.data.find((t) => t.name === 'Platform');
  if (!team) throw new Error('no Platform team in the seed');
  return team.team_id;
}

/** The seed's active projects, which both the main member and the peer can change. */
export async function activeProjects(f: PushFixture): Promise<string[]> {
  const page = await f.api.listPage(projectOperations.list, { orgId: f.emulator.orgId }, { limit: 100 });
  if (page.status !== 200) throw new Error('projects.list answered 304');
  return page.body.data.filter((p) => p.status === 'active').map((p) => p.project_id);
}

/** A project both the main member and the peer can change. */
export async function sharedProject(f: PushFixture): Promise<string> {
  const [project] = await activeProjects(f);
  if (project === undefined) throw new Error('no active project in the seed');
  return project;
}

/** The resource as the server has it now (a plain read, so never a 304). */
export async function serverBody<Body, Params>(
  api: ApiClient,
  read: ReadOperation<Body, Params>,
  params: Params,
): Promise<Body> {
  const answer = await api.read(read, params);
  if (answer.status !== 200) throw new Error(`${read.name} answered 304`);
  return answer.body;
}

/**
 * Pushes the create waiting in the outbox and answers the server id it landed
 * under (`landedId` finds it in the mirror); the requests so far are forgotten.
 */
export async function pushedId(f: PushFixture, kind: string, landedId: () => unknown): Promise<string> {
  await f.pusher.pushAll();
  const id = landedId();
  if (typeof id !== 'string' || id.startsWith('local-')) throw new Error(`the ${kind} did not land`);
  f.emulator.control.clearRequests();
  return id;
}

/**
 * One kind written in the app as its push tests reach it on the server, a
 * record named by its parent (project, team) and id as the kind's route has
 * them: the writes on its paths, a fresh server copy, and the peer's rename
 * over the version they read (the peer may read and write the kind).
 */
export function kindOnServer<Body, Params>(
  kind: WritableKind,
  operations: { get: ReadOperation<Body, Params>; update: UpdateOperation<Body, { name: string }, Params> },
) {
  const { route, writeScope } = kind;
  // The operations take the route's parameters (protocol/writable-kind.ts): its parent's, then its own id.
  const params = (parentId: string, id: string) =>
    ({ ...(route.parent === null ? {} : { [route.parent.param]: parentId }), [route.idParam]: id }) as Params;
  const peerScopes = [writeScope.replace(/:write$/, ':read'), writeScope];
  return {
    writes: (f: PushFixture) => writesTo(f, (path) => path.includes(`/${route.path}`)),
    server: (api: ApiClient, parentId: string, id: string) =>
      serverBody(api, operations.get, params(parentId, id)),
    peerRenames: (f: PushFixture, parentId: string, id: string, name: string) =>
      editElsewhere(peerClient(f, peerScopes), operations.get, operations.update, params(parentId, id), {
        name,
      }),
  };
}

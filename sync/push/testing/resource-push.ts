// What the push tests of the kinds written in the app (goals, milestones,
// sprints, sections, comments) share: the writes the service answered for one
// kind, a second person's client, an edit made elsewhere over the current
// version, and the rename race settled in the three-way view.
import { expect } from 'vitest';
import type { ApiClient } from '../../api/api-client';
import { type ReadOperation, taskCommentOperations, type UpdateOperation } from '../../api/operations';
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
 * takes `take` and the next push sends what that leaves.
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
}

// Pulling against the emulator over real HTTP into a real SQLite mirror: the
// paging rules (304 reuse, short and empty pages, refused cursors), deletions
// only after a complete pass, resuming an interrupted pass after a restart,
// 429/5xx/malformed answers (a broken item left out, the rest applied), and the change list with its notifications.
import { describe, expect, test } from 'vitest';
import { ApiError } from '../api/errors';
import { taskCommentOperations } from '../api/operations';
import { DELETED_REMOTELY } from '../../db/outbox/outbox-types';
import { SyncEngine } from '../engine/sync-engine';
import type { SyncEvent } from '../events/sync-events';
import { eventEntry } from '../sync-log/sync-log-recorder';
import { type PullFixture, pullFixturePerTest, serverTaskIds } from './testing/pull-fixture';

const setUp = pullFixturePerTest();

function taskListRequests(f: PullFixture) {
  return f.emulator.control.requests().filter((r) => r.method === 'GET' && r.path === '/v1/tasks');
}

/** The position a tasks page request's cursor points at (its created_at key), for ordering concurrent pages. */
function pageOrder(query: string): number {
  const cursor = new URLSearchParams(query).get('cursor');
  if (cursor === null) return 0;
  const { a } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { a: [string, string] };
  return Date.parse(a[0]);
}

/** A tasks page body with one task changed by `spoil` (unchanged when the page does not hold it). */
function spoilTask(body: string, taskId: string, spoil: (task: Record<string, unknown>) => void): string {
  const page = JSON.parse(body) as { data: Record<string, unknown>[] };
  const task = page.data.find((t) => t.task_id === taskId);
  if (!task) return body;
  spoil(task);
  return JSON.stringify(page);
}

/** A pull whose tasks requests all drop once the whole list's first page is applied: a pass cut off midway. */
async function pullCutAfterFirstTasksPage(f: PullFixture) {
  const unsubscribe = f.engine.subscribe((event) => {
    if (
      event.type === 'progress' &&
      event.collection === 'tasks' &&
      event.scope === '' &&
      event.pagesDone === 1
    ) {
      f.emulator.control.faults.dropConnections(100, { pathPrefix: '/v1/tasks' });
    }
  });
  try {
    return await f.engine.pullOnce();
  } finally {
    unsubscribe();
  }
}

/** An edit the push stopped (as a 422 leaves it): failed, waiting for the person. Returns its op id. */
function stoppedEdit(f: PullFixture, taskId: string, patch: Record<string, unknown>): string {
  const opId = f.mirror.tasks.edit(taskId, patch)?.opId ?? '';
  f.mirror.outbox.start(opId);
  f.mirror.outbox.fail(opId, 'failed', { status: 422 });
  return opId;
}

function conflictEvents(f: PullFixture) {
  return f.events.filter((e) => e.type === 'conflict');
}

function progressOf(events: readonly SyncEvent[], collection: string) {
  return events.flatMap((e) => (e.type === 'progress' && e.collection === collection ? [e] : []));
}

describe('a full pull', () => {
  test('the first sync mirrors every collection and announces nothing', async () => {
    const f = await setUp();
    const summary = await f.engine.pullOnce();
    expect(summary.initial).toBe(true);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    // The collections kept in the mirror's collection tables, pulled between who I am and the tasks.
    const collections = [
      'projects',
      'teams',
      'organization_members',
      'sections',
      'sprints',
      'goals',
      'milestones',
    ] as const;
    // Saved views, pins and attachments are pulled too; the seed has none, so nothing is mirrored of them.
    expect(summary.completed).toEqual([
      'organizations',
      'me',
      ...collections,
      'views',
      'view_pins',
      'task_attachments',
      'tasks',
    ]);
    for (const collection of collections) {
      expect(f.mirror.collections.list(collection).length, collection).toBeGreaterThan(0);
    }
    expect(summary.notifications).toEqual([]);
    expect(f.events.some((e) => e.type === 'changes')).toBe(false);
    expect(f.mirror.feed.list(f.emulator.me.username)).toEqual([]);
  });

  test("the first sync loads the whole task list as a first load (sort indexes built after it), though the person's tasks come before it", async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    await f.mirror.sortIndexesReady();
    // Only a first full pass into an empty tasks table defers its sort indexes and builds them in steps afterwards.
    expect(f.mirror.indexBuildSteps.length).toBeGreaterThan(0);
  });

  test('a re-sync with nothing changed revalidates every page with its ETag and gets only 304s', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    expect(summary.pulled).toBe(0);
    expect(summary.changes).toEqual([]);
    const tasks = taskListRequests(f);
    expect(tasks).toHaveLength(3);
    expect(tasks.every((r) => r.ifNoneMatch !== null && r.status === 304)).toBe(true);
    expect(summary.notModified).toBe(f.emulator.control.requests().filter((r) => r.status === 304).length);
    expect(f.mirroredTaskIds()).toHaveLength(2500);
  });

  test('a re-sync revalidates known pages concurrently; a first sync walks them one at a time', async () => {
    const f = await setUp();
    f.emulator.control.faults.setLatency(40, { pathPrefix: '/v1/tasks' });
    await f.engine.pullOnce();
    expect(f.relay.maxTasksInFlight).toBe(1);
    f.relay.resetCounts();
    await f.engine.pullOnce();
    expect(f.relay.maxTasksInFlight).toBe(3);
  });

  test('a changed page is fetched whole; pages before it are reused from their 304', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    // The newest task sits on the last page (created_at order).
    const last = f.emulator.control
      .tasks()
      .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? ''))[2499];
    f.emulator.control.peerEdit(last?.task_id ?? '', { title: 'renamed by the peer' });
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    // Revalidated concurrently: the log holds them in the order they were answered.
    const byPage = taskListRequests(f).sort((a, b) => pageOrder(a.query) - pageOrder(b.query));
    expect(byPage.map((r) => r.status)).toEqual([304, 304, 200]);
    expect(summary.pulled).toBeGreaterThanOrEqual(500);
    expect(summary.changes.map((c) => [c.collection, c.id, c.kind])).toEqual([
      ['tasks', last?.task_id, 'updated'],
    ]);
    expect(summary.changes[0]?.fields).toContainEqual({
      field: 'title',
      before: last?.title,
      after: 'renamed by the peer',
    });
    expect(f.mirror.tasks.get(last?.task_id ?? '')?.task.title).toBe('renamed by the peer');
  });
});

describe('paging quirks', () => {
  test('short and empty pages that still carry a cursor are followed to the end', async () => {
    const f = await setUp();
    f.emulator.control.faults.shortPages(2, { pathPrefix: '/v1/tasks', pageSize: 7 });
    f.emulator.control.faults.emptyPages(2, { pathPrefix: '/v1/tasks' });
    const summary = await f.engine.pullOnce();
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(taskListRequests(f).length).toBeGreaterThanOrEqual(7);
    expect(summary.completed).toContain('tasks');
  });

  test('stored cursors that expired only cost their speculative requests: the walk follows the fresh ones', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    f.emulator.control.faults.expireCursors();
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    expect(summary.restarts).toBe(0);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
  });

  test('a resumed pass whose cursor is refused starts over from the first page and still completes', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const gone = serverTaskIds(f)[10] ?? '';
    f.emulator.control.peerDelete(gone);
    f.emulator.control.faults.expireCursors();
    const stop = new AbortController();
    const unsubscribe = f.engine.subscribe((event) => {
      if (event.type === 'progress' && event.collection === 'tasks' && event.pagesDone === 1) stop.abort();
    });
    await expect(f.engine.pullOnce({ signal: stop.signal })).rejects.toThrow();
    unsubscribe();
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('running');
    // The cursor the pass would resume with stops being accepted.
    f.emulator.control.faults.expireCursors();
    await f.reopen();
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    expect(summary.restarts).toBe(1);
    expect(taskListRequests(f)[0]?.status).toBe(400);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(summary.changes.filter((c) => c.kind === 'deleted').map((c) => c.id)).toEqual([gone]);
  });

  test('an injected cursor refusal mid-walk also restarts and completes', async () => {
    const f = await setUp();
    f.emulator.control.faults.rejectCursors(1, { pathPrefix: '/v1/tasks' });
    const summary = await f.engine.pullOnce();
    expect(summary.restarts).toBe(1);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
  });
});

describe('deletions and interrupted passes', () => {
  test('a pass cut off by dropped connections removes nothing; a new engine on the same file resumes it and then removes', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const ids = serverTaskIds(f);
    const deleted = [ids[0] ?? '', ids[2000] ?? ''];
    for (const id of deleted) f.emulator.control.peerDelete(id);
    f.emulator.control.peerCreate({ title: 'created while we were away' });
    f.emulator.control.faults.expireCursors();
    const cut = await pullCutAfterFirstTasksPage(f);
    // The other collections went on; the summary names the task list and why.
    expect(cut.failed).toEqual([
      expect.objectContaining({
        collection: 'tasks',
        scope: '',
        error: expect.objectContaining({ kind: 'network' }) as unknown,
      }),
    ]);
    expect(cut.completed).toContain('sections');
    // Nothing removed: the pass did not see every page.
    for (const id of deleted) expect(f.mirror.tasks.get(id)).not.toBeNull();
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('running');

    f.emulator.control.faults.clear();
    await f.reopen();
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    // It went on from the page after the last one applied, not from the start.
    const first = taskListRequests(f)[0];
    expect(first?.query).toContain('cursor=');
    for (const id of deleted) expect(f.mirror.tasks.get(id)).toBeNull();
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(
      summary.changes
        .filter((c) => c.kind === 'deleted')
        .map((c) => c.id)
        .sort(),
    ).toEqual([...deleted].sort());
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
  });

  test("a first sync fetches the person's own tasks before the whole list, also when resumed after a restart", async () => {
    const f = await setUp();
    const me = f.emulator.me.username;
    const isSeenFirst = (query: string) => query.includes('assignee') || query.includes('team');
    const firstWholeListIndex = () => {
      const tasks = taskListRequests(f);
      const at = tasks.findIndex((r) => !isSeenFirst(r.query));
      return { before: tasks.slice(0, at === -1 ? tasks.length : at), at };
    };
    // The restart: every tasks request fails once the whole list's first page is in.
    const failure = await pullCutAfterFirstTasksPage(f);
    expect(failure.failed.map((c) => [c.collection, c.error.kind])).toEqual([['tasks', 'network']]);
    const cut = firstWholeListIndex();
    expect(cut.at).toBeGreaterThan(0);
    expect(cut.before.some((r) => r.query.includes('assignee'))).toBe(true);
    // The current sprint's team's tasks come with the whole list's chains: no list of their own.
    expect(cut.before.some((r) => r.query.includes('team'))).toBe(false);
    // What the person sees first is all there although the whole list got one page of three.
    const mine = f.emulator.control.tasks().filter((t) => t.assignee === me);
    expect(mine.length).toBeGreaterThan(0);
    for (const task of mine) expect(f.mirror.tasks.get(task.task_id), task.task_id).not.toBeNull();
    expect(f.mirroredTaskIds().length).toBeLessThan(serverTaskIds(f).length);

    f.emulator.control.faults.clear();
    await f.reopen();
    f.emulator.control.clearRequests();
    const resumed = await f.engine.pullOnce();
    expect(resumed.initial).toBe(true);
    const again = firstWholeListIndex();
    expect(again.before.some((r) => r.query.includes('assignee'))).toBe(true);
    // The whole list goes on after the page it had, not from the start.
    expect(taskListRequests(f)[again.at]?.query).toContain('cursor=');
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));

    // Later full syncs walk the whole list only (the hot tier keeps the person's tasks fresh).
    f.emulator.control.clearRequests();
    await f.engine.pullOnce();
    expect(taskListRequests(f).some((r) => isSeenFirst(r.query))).toBe(false);
  });

  test("a first sync walks the whole list while the person's own tasks still come, once their first page is in (issue 28)", async () => {
    const f = await setUp();
    const faults = f.emulator.control.faults;
    const tasksGet = { method: 'GET', pathPrefix: '/v1/tasks' };
    // The person's first page holds one task: their walk has another page to ask for.
    faults.shortPages(1, tasksGet);
    const first = faults.hold(tasksGet);
    const sync = f.engine.pullOnce();
    await first.arrived;
    const second = faults.hold(tasksGet);
    first.release();
    await second.arrived;
    // With that request held (the person's next page, or the whole list's first), the other comes:
    // the whole list did not wait for the person's walk to end.
    const third = faults.hold(tasksGet);
    await third.arrived;
    third.release();
    second.release();
    const summary = await sync;

    expect(summary.initial).toBe(true);
    expect(taskListRequests(f)[0]?.query).toContain('assignee');
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', 'hot:assigned')?.state).toBe('complete');
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
  });

  test("a first sync stopped as the person's first page comes ends as an aborted request, and nothing is written after (issue 28)", async () => {
    const f = await setUp();
    const stop = new AbortController();
    let ended = false;
    const lateProgress: SyncEvent[] = [];
    const unsubscribe = f.engine.subscribe((event) => {
      if (ended && event.type === 'progress') lateProgress.push(event);
      // The person's first page is in: their walk goes on, and the stop comes before the chains begin.
      if (event.type === 'progress' && event.collection === 'tasks' && event.pagesDone === 1) stop.abort();
    });
    const outcome = await f.engine.pullOnce({ signal: stop.signal }).then(
      () => null,
      (error: unknown) => error,
    );
    ended = true;
    // The headless command and the app both say "stopped", never an unexpected failure.
    expect(outcome).toBeInstanceOf(ApiError);
    expect((outcome as ApiError).kind).toBe('aborted');
    const tasksThen = f.mirroredTaskIds().length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    unsubscribe();
    expect(lateProgress).toEqual([]);
    expect(f.mirroredTaskIds()).toHaveLength(tasksThen);
  });

  test('a task with pending local edits keeps them when the server copy changes, and the server copy becomes the base', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const id = serverTaskIds(f)[5] ?? '';
    f.mirror.tasks.edit(id, { title: 'my own title' });
    f.emulator.control.peerEdit(id, { status: 'blocked', title: 'their title' });
    await f.engine.pullOnce();
    const row = f.mirror.tasks.get(id);
    expect(row?.task.title).toBe('my own title');
    expect(row?.task.status).toBe('blocked');
    expect(row?.server?.title).toBe('their title');
    expect(row?.pending).toBe(true);
  });
});

describe('a task gone from a complete pass while its edit is stopped', () => {
  test('a failed (422) or blocked (read-only) edit becomes the deleted-remotely conflict at once: the draft is kept, nothing is retried', async () => {
    const f = await setUp({ seedTasks: 40 });
    await f.engine.pullOnce();
    const [failedId, blockedId] = f.mirroredTaskIds().sort() as [string, string];
    const failed = f.mirror.tasks.edit(failedId, {
      assignee: 'nobody-by-that-name',
      title: 'my failed title',
    });
    expect((await f.engine.pushOnce()).failed).toBe(1);
    // The same person signed in with the read-only test token: the edit is blocked.
    const readOnly = new SyncEngine({
      mirror: f.mirror,
      api: f.apiWith(f.emulator.tokens.test),
      me: f.emulator.me,
      pullInWorker: false,
    });
    const blocked = f.mirror.tasks.edit(blockedId, { title: 'my blocked title' });
    await readOnly.pushOnce();
    await readOnly.close();
    expect(f.mirror.outbox.op(failed?.opId ?? '').state).toBe('failed');
    expect(f.mirror.outbox.op(blocked?.opId ?? '').state).toBe('blocked');

    f.emulator.control.peerDelete(failedId);
    f.emulator.control.peerDelete(blockedId);
    f.emulator.control.clearRequests();
    f.events.length = 0;
    await f.engine.pullOnce();

    expect(f.emulator.control.requests().filter((r) => r.method !== 'GET')).toEqual([]);
    // Told as a push's conflict is told (status bar, "needs you" notification).
    expect(f.events.filter((e) => e.type === 'conflict')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          entityId: failedId,
          conflict: 'deleted-remotely',
          fields: ['assignee', 'title'],
        }),
        expect.objectContaining({ entityId: blockedId, conflict: 'deleted-remotely', fields: ['title'] }),
      ]),
    );
    for (const [taskId, opId, title] of [
      [failedId, failed?.opId, 'my failed title'],
      [blockedId, blocked?.opId, 'my blocked title'],
    ] as const) {
      const op = f.mirror.outbox.op(opId ?? '');
      expect(op.state).toBe('conflict');
      expect(op.lastProblem).toMatchObject({ status: 404, type: 'not-found' });
      expect(f.mirror.outbox.conflicts('open').filter((c) => c.opId === opId)).toEqual([
        expect.objectContaining({ entityId: taskId, field: DELETED_REMOTELY }),
      ]);
      // The draft stays readable: the task is kept (marked gone) with the edit on top.
      const row = f.mirror.tasks.get(taskId);
      expect(row?.serverGone).toBe(true);
      expect(row?.task.title).toBe(title);
    }
    // A later complete pass neither parks them twice nor drops them, nor tells them again.
    f.events.length = 0;
    await f.engine.pullOnce();
    expect(f.mirror.outbox.conflicts('open')).toHaveLength(2);
    expect(f.events.filter((e) => e.type === 'conflict')).toEqual([]);
  });

  test('an open task answered in a form that breaks the contract is skipped and said, and the hot poll goes on to its comments (issue 27)', async () => {
    const f = await setUp({ seedTasks: 20 });
    await f.engine.pullOnce();
    const [taskId] = f.mirroredTaskIds().sort() as [string];
    const before = f.mirror.tasks.get(taskId)?.server;
    f.relay.rewrite = (url, body) =>
      url === `/v1/tasks/${taskId}` ? body.replace(/"status":"[^"]+"/, '"status":{"not":"a string"}') : body;
    f.engine.openTask(taskId);
    f.emulator.control.clearRequests();
    f.events.length = 0;

    await f.engine.pullOnce({ tier: 'hot' });

    expect(f.events.filter((e) => e.type === 'resource-skipped')).toEqual([
      expect.objectContaining({ collection: 'tasks', scope: taskId }),
    ]);
    expect(f.mirror.tasks.get(taskId)?.server).toEqual(before);
    const commentsAsked = f.emulator.control
      .requests()
      .filter(
        (r) => r.path === '/v1/task-comments' && new URLSearchParams(r.query).get('task_id') === taskId,
      );
    expect(commentsAsked).toHaveLength(1);
  });

  test('a 404 read of the open task parks its failed edit and tells it once', async () => {
    const f = await setUp({ seedTasks: 20 });
    await f.engine.pullOnce();
    const [taskId] = f.mirroredTaskIds().sort() as [string];
    const failed = stoppedEdit(f, taskId, { title: 'mine', priority: 'high' });
    f.emulator.control.peerDelete(taskId);
    f.engine.openTask(taskId);
    f.events.length = 0;
    await f.engine.pullOnce({ tier: 'hot' });
    expect(f.mirror.outbox.op(failed).state).toBe('conflict');
    expect(conflictEvents(f)).toEqual([
      {
        type: 'conflict',
        opId: failed,
        entityType: 'task',
        entityId: taskId,
        conflict: 'deleted-remotely',
        fields: ['title', 'priority'],
      },
    ]);
    f.events.length = 0;
    await f.engine.pullOnce({ tier: 'hot' });
    expect(conflictEvents(f)).toEqual([]);
  });

  test('a conflict opened by something else while a pull runs is not told as one the pull parked', async () => {
    const f = await setUp({ seedTasks: 40 });
    await f.engine.pullOnce();
    const [goneId, otherId] = f.mirroredTaskIds().sort() as [string, string];
    const parked = stoppedEdit(f, goneId, { title: 'mine' });
    const other = f.mirror.tasks.edit(otherId, { title: 'also mine' })?.opId ?? '';
    f.emulator.control.peerDelete(goneId);
    // While the pull reads the task list, a push (here: its store call) parks another edit.
    f.relay.rewrite = (url, body) => {
      if (url.startsWith('/v1/tasks?') && f.mirror.outbox.op(other).state === 'queued') {
        f.mirror.outbox.conflict(other, {
          deleted: false,
          theirsEtag: null,
          fields: [{ field: 'title', base: 'before', mine: 'also mine', theirs: 'theirs' }],
        });
      }
      return body;
    };
    f.events.length = 0;
    await f.engine.pullOnce();
    expect(f.mirror.outbox.op(other).state).toBe('conflict');
    expect(f.mirror.outbox.openConflictCount()).toBe(2);
    expect(conflictEvents(f).map((e) => e.opId)).toEqual([parked]);
  });

  test('a pull that fails after the task pass completed still tells the edits it parked', async () => {
    const f = await setUp({ seedTasks: 40 });
    await f.engine.pullOnce();
    const [taskId] = f.mirroredTaskIds().sort() as [string];
    const parked = stoppedEdit(f, taskId, { title: 'mine' });
    f.emulator.control.peerDelete(taskId);
    // Sections fail (every retry); the task list, which does not need them, completes.
    f.emulator.control.faults.serverErrors(100, { pathPrefix: '/v1/sections' });
    f.events.length = 0;
    const summary = await f.engine.pullOnce();
    expect(summary.failed.map((c) => c.collection)).toEqual(['sections']);
    expect(f.mirror.outbox.op(parked).state).toBe('conflict');
    expect(conflictEvents(f)).toEqual([expect.objectContaining({ opId: parked, entityId: taskId })]);
  });

  test('a queued edit of a task gone from the list is left to the push, which meets the 404 and parks it the same way', async () => {
    const f = await setUp({ seedTasks: 20 });
    await f.engine.pullOnce();
    const [taskId] = f.mirroredTaskIds().sort() as [string];
    const edit = f.mirror.tasks.edit(taskId, { title: 'queued title' });
    f.emulator.control.peerDelete(taskId);
    await f.engine.pullOnce();
    expect(f.mirror.outbox.op(edit?.opId ?? '').state).toBe('queued');
    await f.engine.pushOnce();
    expect(f.mirror.outbox.op(edit?.opId ?? '').state).toBe('conflict');
    expect(f.mirror.outbox.conflicts('open')).toEqual([
      expect.objectContaining({ entityId: taskId, field: DELETED_REMOTELY }),
    ]);
  });
});

describe('failing answers', () => {
  test('429 answers are waited out for Retry-After and the pull completes', async () => {
    const f = await setUp();
    f.emulator.control.faults.rateLimitBurst(2, { pathPrefix: '/v1/tasks', retryAfterSeconds: 1 });
    await f.engine.pullOnce();
    expect(f.api.stats.rateLimited).toBe(2);
    const log = taskListRequests(f);
    const limited = log.filter((r) => r.status === 429);
    const after = log.find((r) => r.status === 200);
    expect(limited).toHaveLength(2);
    expect((after?.at ?? 0) - (limited[0]?.at ?? 0)).toBeGreaterThanOrEqual(1000);
    expect(f.mirroredTaskIds()).toHaveLength(2500);
  });

  test('5xx answers are retried and the pull completes', async () => {
    const f = await setUp();
    f.emulator.control.faults.serverErrors(2, { pathPrefix: '/v1/tasks' });
    await f.engine.pullOnce();
    expect(taskListRequests(f).filter((r) => r.status === 500)).toHaveLength(2);
    expect(f.mirroredTaskIds()).toHaveLength(2500);
  });

  test('a task that breaks the contract is left out of its page and named in the sync log; the rest lands, and its previous copy stays through complete passes (issue 27)', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const [bad, good, gone] = f.emulator.control.tasks();
    if (!bad || !good || !gone) throw new Error('the seed lacks tasks for this test');
    const before = f.mirror.tasks.get(bad.task_id)?.server;
    // Each edit changes its page, which then comes whole (not a 304): the broken task is read again.
    f.emulator.control.peerEdit(bad.task_id, { title: 'edited, then sent broken' });
    f.emulator.control.peerEdit(good.task_id, { title: 'edited and sent whole' });
    f.emulator.control.peerDelete(gone.task_id);
    f.relay.rewrite = (url, body) =>
      url.startsWith('/v1/tasks?')
        ? spoilTask(body, bad.task_id, (task) => (task.status = { not: 'a string' }))
        : body;
    f.events.length = 0;

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.completed).toContain('tasks');
    expect(f.mirror.tasks.get(good.task_id)?.server?.title).toBe('edited and sent whole');
    expect(f.mirror.tasks.get(bad.task_id)?.server).toEqual(before);
    // The pass completed: what the service no longer lists is gone, the broken task is not.
    expect(f.mirror.tasks.get(gone.task_id)).toBeNull();
    const skipped = f.events.filter((e) => e.type === 'item-skipped');
    expect(skipped[0]).toMatchObject({ collection: 'tasks', id: bad.task_id, field: 'status' });
    expect(new Set(skipped.map((e) => (e.type === 'item-skipped' ? e.id : '')))).toEqual(
      new Set([bad.task_id]),
    );
    const entry = skipped[0] ? eventEntry(skipped[0]) : null;
    expect(entry).toMatchObject({ level: 'warn', kind: 'sync' });
    expect(entry?.message).toContain(bad.task_id);
    expect(entry?.message).toContain('status');

    // Broken at every pull, it is kept at every pull.
    await f.engine.pullOnce();
    expect(f.mirror.tasks.get(bad.task_id)?.server).toEqual(before);

    f.relay.rewrite = null;
    await f.engine.pullOnce();
    expect(f.mirror.tasks.get(bad.task_id)?.server?.title).toBe('edited, then sent broken');
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
  });

  test('a task whose id cannot be read is left out and its pass removes nothing, for it could be any task (issue 27)', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const [bad, gone] = f.emulator.control.tasks();
    if (!bad || !gone) throw new Error('the seed lacks tasks for this test');
    const before = f.mirror.tasks.get(bad.task_id)?.server;
    f.emulator.control.peerEdit(bad.task_id, { title: 'edited, then sent without its id' });
    f.emulator.control.peerDelete(gone.task_id);
    f.relay.rewrite = (url, body) =>
      url.startsWith('/v1/tasks?') ? spoilTask(body, bad.task_id, (task) => (task.task_id = 17)) : body;
    f.events.length = 0;

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(f.mirror.tasks.get(bad.task_id)?.server).toEqual(before);
    expect(f.mirror.tasks.get(gone.task_id)).not.toBeNull();
    expect(f.events.filter((e) => e.type === 'item-skipped')[0]).toMatchObject({
      collection: 'tasks',
      id: null,
      field: 'task_id',
    });

    f.relay.rewrite = null;
    await f.engine.pullOnce();
    expect(f.mirror.tasks.get(gone.task_id)).toBeNull();
    expect(f.mirror.tasks.get(bad.task_id)?.server?.title).toBe('edited, then sent without its id');
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
  });
});

describe('a broken answer to /v1/me', () => {
  /** A pull after a restart whose /v1/me comes back whole (its ETag no longer matches) but in a form that breaks the contract. */
  async function restartWithBrokenMe(f: PullFixture): Promise<void> {
    const kept = f.mirror.identity.remembered();
    if (kept === null) throw new Error('the first pull remembered no identity');
    f.mirror.identity.remember({ etag: '"from-before"', me: kept.me });
    await f.reopen();
    f.relay.rewrite = (url, body) => (url === '/v1/me' ? '{"user_id":17,"org_id":["not","an","id"]}' : body);
    f.events.length = 0;
  }

  test('with an identity remembered: it stands, the answer is skipped and said, and the rest of the sync goes on (issue 27)', async () => {
    const f = await setUp({ seedTasks: 20 });
    await f.engine.pullOnce();
    await restartWithBrokenMe(f);
    const [edited] = f.emulator.control.tasks();
    if (!edited) throw new Error('the seed lacks tasks');
    f.emulator.control.peerEdit(edited.task_id, { title: 'edited while /v1/me was broken' });

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.completed).toContain('tasks');
    expect(f.mirror.tasks.get(edited.task_id)?.server?.title).toBe('edited while /v1/me was broken');
    const skipped = f.events.filter((e) => e.type === 'resource-skipped');
    expect(skipped).toEqual([
      expect.objectContaining({
        collection: 'me',
        scope: '',
        error: expect.objectContaining({ kind: 'invalid-response', operation: 'me.get' }) as unknown,
      }),
    ]);
    const entry = skipped[0] ? eventEntry(skipped[0]) : null;
    expect(entry?.message).toContain('me.get');
    expect(f.mirror.identity.account().orgId).toBe(f.emulator.orgId);
  });

  test('with none remembered: the sync fails as one InvalidResponseError naming me.get, since no organization is known', async () => {
    const f = await setUp({ seedTasks: 20 });
    f.relay.rewrite = (url, body) => (url === '/v1/me' ? '{"user_id":17}' : body);
    const summary = await f.engine.pullOnce();
    expect(summary.completed).not.toContain('tasks');
    expect(summary.failed[0]?.error).toMatchObject({ kind: 'invalid-response', operation: 'me.get' });
    expect(f.mirroredTaskIds()).toEqual([]);
  });
});

describe('the change list', () => {
  test('peer edits, creates and deletes come back as changes with before and after, and raise notifications for me', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const me = f.emulator.me.username;
    const [a, b, c] = f.emulator.control.tasks().filter((t) => t.assignee !== me && t.created_by !== me);
    const mine = f.emulator.control.tasks().find((t) => t.assignee === me && t.status !== 'completed');
    if (!a || !b || !c || !mine) throw new Error('the seed lacks tasks for this test');
    f.emulator.control.peerEdit(a.task_id, { assignee: me });
    f.emulator.control.peerEdit(b.task_id, { priority: 'urgent' });
    f.emulator.control.peerEdit(mine.task_id, { status: 'blocked' });
    f.emulator.control.peerDelete(c.task_id);
    const created = f.emulator.control.peerCreate({ title: 'for you', assignee: me });
    f.events.length = 0;
    const summary = await f.engine.pullOnce();
    const byId = new Map(summary.changes.filter((x) => x.collection === 'tasks').map((x) => [x.id, x]));
    expect(byId.get(a.task_id)?.fields).toContainEqual({ field: 'assignee', before: a.assignee, after: me });
    expect(byId.get(b.task_id)?.fields).toContainEqual({
      field: 'priority',
      before: b.priority,
      after: 'urgent',
    });
    expect(byId.get(c.task_id)).toMatchObject({ kind: 'deleted', resource: { task_id: c.task_id } });
    expect(byId.get(created.task_id)).toMatchObject({ kind: 'created', resource: { title: 'for you' } });
    expect(summary.notifications.map((n) => [n.kind, n.task_id]).sort()).toEqual(
      [
        ['task-assigned', a.task_id],
        ['task-assigned', created.task_id],
        ['task-status-changed', mine.task_id],
      ].sort(),
    );
    expect(f.events.filter((e) => e.type === 'changes')).toHaveLength(1);
    expect(
      f.mirror.feed
        .list(me)
        .map((n) => n.kind)
        .sort(),
    ).toEqual(['task-assigned', 'task-assigned', 'task-status-changed']);
  });

  test('a new comment by someone else on my task is found by the hot pull', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const me = f.emulator.me.username;
    const mine = f.emulator.control.tasks().find((t) => t.assignee === me && t.status !== 'completed');
    if (!mine) throw new Error('the seed has no open task of mine');
    f.engine.openTask(mine.task_id);
    // The first look at a task's comments fills the cache quietly.
    await f.engine.pullOnce({ tier: 'hot' });
    const peer = f.apiWith(f.emulator.tokens.peer);
    await peer.create(
      taskCommentOperations.create,
      {},
      { task_id: mine.task_id, content: 'Can you look at this?' },
      {
        idempotencyKey: 'comment-1',
      },
    );
    const summary = await f.engine.pullOnce({ tier: 'hot' });
    expect(summary.notifications).toEqual([
      expect.objectContaining({
        kind: 'task-commented',
        task_id: mine.task_id,
        by: f.emulator.peer.username,
        detail: { count: 1 },
      }),
    ]);
  });

  test('the new-task tier finds a task created remotely with one filtered request', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const created = f.emulator.control.peerCreate({ title: 'brand new' });
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce({ tier: 'new' });
    expect(summary.changes.map((c) => [c.kind, c.id])).toEqual([['created', created.task_id]]);
    const requests = f.emulator.control.requests();
    expect(requests.filter((r) => r.path === '/v1/tasks')).toHaveLength(1);
    expect(decodeURIComponent(requests.find((r) => r.path === '/v1/tasks')?.query ?? '')).toContain(
      'filter[created_after]=',
    );
  });
});

describe('progress', () => {
  test('progress names the collection and counts pages and items; a re-sync knows the total up front', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const first = progressOf(f.events, 'tasks').filter((p) => p.scope === '');
    expect(first.map((p) => [p.pagesDone, p.itemsDone])).toEqual([
      [1, 1000],
      [2, 2000],
      [3, 2500],
    ]);
    f.events.length = 0;
    await f.engine.pullOnce();
    const again = progressOf(f.events, 'tasks').filter((p) => p.scope === '');
    expect(again.map((p) => [p.pagesDone, p.itemsDone, p.estimatedTotal, p.notModified])).toEqual([
      [1, 1000, 2500, 1],
      [2, 2000, 2500, 2],
      [3, 2500, 2500, 3],
    ]);
    expect(progressOf(f.events, 'sprints').length).toBeGreaterThan(0);
  });
});

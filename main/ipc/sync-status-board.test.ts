import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { openMirror } from '../../db/open-mirror';
import { loadTasks, onlyPage } from '../../db/test-mirror';
import type { SyncEvent, SyncSummary } from '../../sync/events/sync-events';
import { networkError } from '../../sync/events/testing/sync-error-fixtures';
import type { AttachmentUploadProgress } from '../../ipc/attachment-schemas';
import type { MirrorChanged, SyncStatus } from '../../ipc/screen-schemas';
import {
  type AccountSyncState,
  initialAccountSyncState,
  reduceAccountSync,
} from '../../sync/accounts/account-status';
import { type StatusAccount, SyncStatusBoard } from './sync-status-board';

let dir: string;
let mirror: Mirror;
let statuses: SyncStatus[];
let changes: MirrorChanged[];
let board: SyncStatusBoard;
let account: StatusAccount;
/** The account's status as an AccountRuntime keeps it (the board only shows it). */
let tracked: AccountSyncState;
const now = new Date('2026-03-04T10:00:00Z');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'status-board-'));
  mirror = await openMirror(join(dir, 'mirror.sqlite'));
  mirror.identity.setAccount({ orgId: 'org_1', username: 'ada' });
});

afterAll(async () => {
  mirror?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  statuses = [];
  changes = [];
  board?.close();
  board = new SyncStatusBoard({
    emitStatus: (status) => statuses.push(status),
    emitChanged: (change) => changes.push(change),
    throttleMs: 0,
  });
  tracked = initialAccountSyncState(mirror.passes.state('tasks')?.completedAt ?? null);
  account = {
    accountId: 'acct-1',
    mirror,
    signedIn: true,
    readOnly: false,
    get sync() {
      return tracked;
    },
  };
});

/** One sync event as the app delivers it: the runtime folds it into the status, then the board hears it. */
function feed(target: StatusAccount, event: SyncEvent): void {
  tracked = reduceAccountSync(tracked, event, {
    nowMs: now.getTime(),
    firstSyncPending: () => target.mirror.passes.state('tasks')?.completedAt == null,
  });
  board.onSyncEvent({ ...target, sync: tracked }, event);
}

const latest = () => statuses[statuses.length - 1];
/** A finished sync's summary whose full pull could not sync `failed`. */
const summary = (failed: SyncSummary['failed_collections']): SyncSummary => ({
  pulled: 10,
  pushed: 0,
  conflicts: 0,
  requests: 9,
  not_modified: 0,
  failed: 0,
  changes: 0,
  notifications: 0,
  failed_collections: failed,
});
const settle = () => new Promise((done) => setTimeout(done, 5));

describe('the sync status the screens show', () => {
  test('a first sync reports its progress until it finishes, then the time it finished', async () => {
    feed(account, { type: 'sync-started', reason: 'start', tier: 'full' });
    expect(latest()).toMatchObject({ syncing: true, first_sync: { collection: 'organizations' } });
    feed(account, {
      type: 'progress',
      collection: 'tasks',
      scope: '',
      pagesDone: 2,
      itemsDone: 2000,
      estimatedTotal: 5000,
      notModified: 0,
    });
    await settle();
    expect(latest()?.first_sync).toEqual({ collection: 'tasks', items_done: 2000, estimated_total: 5000 });
    expect(changes.some((change) => change.collections.includes('tasks'))).toBe(true);
    const summary = {
      pulled: 5000,
      pushed: 0,
      conflicts: 0,
      requests: 7,
      not_modified: 0,
      failed: 0,
      changes: 0,
      notifications: 0,
      failed_collections: [],
    };
    feed(account, { type: 'sync-finished', reason: 'start', summary });
    expect(latest()).toMatchObject({
      syncing: false,
      first_sync: null,
      connection: 'online',
      last_synced_at: now.toISOString(),
    });
  });

  test('offline says why, and coming back online clears it', () => {
    feed(account, { type: 'offline', error: networkError });
    expect(latest()).toMatchObject({ connection: 'offline', problem: { kind: 'network' } });
    feed(account, { type: 'online' });
    expect(latest()).toMatchObject({ connection: 'online', problem: null });
  });

  test('local edits waiting are counted as pending, and a push is announced for its task', () => {
    mirror.passes.applyPage(
      onlyPage('tasks', [{ task_id: 'tsk_1', title: 'One', status: 'not_started', tags: [] }]),
    );
    mirror.tasks.edit('tsk_1', { status: 'in_progress' });
    board.announce(account);
    expect(latest()?.pending_count).toBe(1);
    const pushed: SyncEvent = {
      type: 'pushed',
      opId: 'op',
      entityType: 'task',
      entityId: 'tsk_1',
      kind: 'update',
      serverId: 'tsk_1',
    };
    feed(account, pushed);
    expect(changes[changes.length - 1]).toMatchObject({ collections: ['tasks'], task_ids: ['tsk_1'] });
  });

  test('a burst of pushed edits tells each task changed, and the status once, its outbox counted once', async () => {
    let counted = 0;
    const counting: StatusAccount = {
      ...account,
      mirror: {
        passes: mirror.passes,
        outbox: {
          counts: () => {
            counted += 1;
            return mirror.outbox.counts();
          },
        },
      },
    };
    const quick = new SyncStatusBoard({
      emitStatus: (status) => statuses.push(status),
      emitChanged: (change) => changes.push(change),
      throttleMs: 1,
    });
    // A bulk change's edits, as its push settles them one after another.
    for (let i = 0; i < 50; i++) {
      quick.onSyncEvent(counting, {
        type: 'pushed',
        opId: `op-${i}`,
        entityType: 'task',
        entityId: `tsk_${i}`,
        kind: 'update',
        serverId: `tsk_${i}`,
      });
    }
    await settle();
    quick.close();
    expect(changes.map((change) => change.task_ids)).toEqual(
      Array.from({ length: 50 }, (_, i) => [`tsk_${i}`]),
    );
    // At a million tasks, 50 000 edits waiting: a count per edit was ~3-6 ms of main's CPU each.
    expect(statuses).toHaveLength(1);
    expect(counted).toBe(1);
  });

  test('a pushed comment or section tells the screens its collection changed, not a task of its id', () => {
    feed(account, {
      type: 'pushed',
      opId: 'op',
      entityType: 'comment',
      entityId: 'local-2',
      kind: 'create',
      serverId: 'cmt_2',
    });
    expect(changes[changes.length - 1]).toMatchObject({ collections: ['task_comments'], task_ids: null });
    // Tasks filed into the section while it was queued now name its new id: their rows change too.
    feed(account, { type: 'id-remapped', entityType: 'section', from: 'local-3', to: 'sec_3' });
    expect(changes[changes.length - 1]).toMatchObject({
      collections: ['sections', 'tasks'],
      task_ids: null,
      remapped: [{ from: 'local-3', to: 'sec_3' }],
    });
  });

  test('a pushed goal or milestone delete reloads the task lists, whose tasks it unfiled', () => {
    for (const entityType of ['goal', 'milestone', 'sprint']) {
      feed(account, {
        type: 'pushed',
        opId: `op-${entityType}`,
        entityType,
        entityId: `${entityType}_1`,
        kind: 'delete',
        serverId: `${entityType}_1`,
      });
      expect(changes[changes.length - 1]).toMatchObject({
        collections: [`${entityType}s`, 'tasks'],
        task_ids: null,
      });
    }
  });

  test("a 412 merged against the server tells the screens its task: the server's side is in the mirror", () => {
    feed(account, {
      type: 'merged',
      opId: 'op',
      entityType: 'task',
      entityId: 'tsk_1',
      rebased: ['title'],
      taken: ['status'],
      settled: [],
    });
    expect(changes).toEqual([
      { account_id: 'acct-1', collections: ['tasks'], task_ids: ['tsk_1'], remapped: [] },
    ]);
  });

  test("a change set aside for a missing scope tells its task, whose row's mark turns to blocked", () => {
    feed(account, {
      type: 'blocked',
      opId: 'op',
      entityType: 'task',
      entityId: 'tsk_2',
      scope: 'tasks:write',
    });
    expect(changes).toEqual([
      { account_id: 'acct-1', collections: ['tasks'], task_ids: ['tsk_2'], remapped: [] },
    ]);
  });

  test('a replaced temporary id reaches the screens so an open task can follow it', () => {
    feed(account, { type: 'id-remapped', entityType: 'task', from: 'local-1', to: 'tsk_9' });
    expect(changes[changes.length - 1]?.remapped).toEqual([{ from: 'local-1', to: 'tsk_9' }]);
  });

  test('collections a full sync could not sync are shown (with why) until a full sync syncs them; hot pulls leave them', () => {
    const sectionsFailed = {
      collection: 'sections' as const,
      scope: '',
      skippedBecause: null,
      attempts: 3,
      error: {
        kind: 'problem',
        type: 'internal',
        status: 500,
        operation: 'sections.list',
        message: 'sections.list: 500 internal',
      },
    };
    feed(account, { type: 'sync-started', reason: 'sync-now', tier: 'full' });
    feed(account, {
      type: 'sync-finished',
      reason: 'sync-now',
      summary: summary([sectionsFailed]),
    });
    expect(latest()).toMatchObject({ connection: 'online', problem: null });
    expect(latest()?.unsynced).toEqual([
      {
        collection: 'sections',
        scope: '',
        skipped_because: null,
        kind: 'problem',
        type: 'internal',
        status: 500,
        message: 'sections.list: 500 internal',
      },
    ]);
    feed(account, { type: 'sync-started', reason: 'poll-hot', tier: 'hot' });
    feed(account, { type: 'sync-finished', reason: 'poll-hot', summary: summary([]) });
    expect(latest()?.unsynced).toHaveLength(1);
    feed(account, { type: 'sync-started', reason: 'poll-retry', tier: 'full' });
    feed(account, { type: 'sync-finished', reason: 'poll-retry', summary: summary([]) });
    expect(latest()?.unsynced).toEqual([]);
  });

  test('the items a sync left out reach the screens with its end, and a task read on its own that is left out at once (issue 27)', async () => {
    feed(account, { type: 'sync-started', reason: 'sync-now', tier: 'full' });
    feed(account, {
      type: 'item-skipped',
      collection: 'tasks',
      scope: '',
      id: 'tsk_9',
      field: 'status',
      reason: 'expected string',
    });
    feed(account, { type: 'sync-finished', reason: 'sync-now', summary: summary([]) });
    expect(latest()?.left_out).toEqual({
      items: [{ collection: 'tasks', id: 'tsk_9', field: 'status', reason: 'expected string' }],
      more: 0,
    });
    statuses.length = 0;
    feed(account, {
      type: 'resource-skipped',
      collection: 'tasks',
      scope: 'tsk_3',
      error: { ...networkError, kind: 'invalid-response', operation: 'tasks.get', message: 'tasks.get: bad' },
    });
    await settle();
    expect(latest()?.left_out.items.map((item) => item.id)).toEqual(['tsk_9', 'tsk_3']);
  });

  test("an attachment's upload progress reaches the screens under the account and the attachment's id; nothing else changes", () => {
    const told: AttachmentUploadProgress[] = [];
    const withProgress = new SyncStatusBoard({
      emitStatus: (status) => statuses.push(status),
      emitChanged: (change) => changes.push(change),
      emitUploadProgress: (progress) => told.push(progress),
      throttleMs: 0,
    });
    const progress = (entityType: string, sentBytes: number): SyncEvent => ({
      type: 'upload-progress',
      opId: 'op-1',
      entityType,
      entityId: 'local-att-1',
      sentBytes,
      totalBytes: 2048,
    });
    withProgress.onSyncEvent(account, progress('attachment', 1024));
    withProgress.onSyncEvent(account, progress('task', 10));
    withProgress.close();
    expect(told).toEqual([
      {
        account_id: 'acct-1',
        attachment_id: 'local-att-1',
        op_id: 'op-1',
        sent_bytes: 1024,
        total_bytes: 2048,
      },
    ]);
    expect(statuses).toEqual([]);
    expect(changes).toEqual([]);
  });

  test('a signed-out account is offline and says it is signed out', () => {
    const signedOut = { ...account, signedIn: false };
    feed(signedOut, { type: 'signed-out', reason: 'token-revoked' });
    expect(latest()).toMatchObject({
      signed_out: true,
      connection: 'offline',
      problem: { type: 'token-revoked' },
    });
  });
});

describe('pause and rate limits', () => {
  test('a rate-limited sync is offline until the time the service named; paused shows while paused', () => {
    let paused = false;
    board.close();
    board = new SyncStatusBoard({
      emitStatus: (status) => statuses.push(status),
      emitChanged: (change) => changes.push(change),
      throttleMs: 0,
      paused: () => paused,
    });
    feed(account, {
      type: 'sync-failed',
      reason: 'sync-now',
      error: {
        kind: 'problem',
        type: 'rate-limit',
        status: 429,
        operation: 'me.get',
        message: 'me.get: 429 rate-limit',
        retryAfterSeconds: 90,
      },
    });
    expect(latest()).toMatchObject({
      connection: 'offline',
      paused: false,
      problem: { type: 'rate-limit', retry_at: '2026-03-04T10:01:30.000Z' },
    });
    paused = true;
    expect(board.status(account).paused).toBe(true);
    feed(account, { type: 'sync-failed', reason: 'sync-now', error: networkError });
    expect(latest()).toMatchObject({ connection: 'offline', problem: { kind: 'network', retry_at: null } });
  });

  test('while the client waits out a 429 the status says rate-limited until when, and clears once answers come', () => {
    feed(account, { type: 'rate-limited', retryAfterSeconds: 30, cause: 'answer' });
    expect(latest()).toMatchObject({
      connection: 'offline',
      problem: { type: 'rate-limit', retry_at: '2026-03-04T10:00:30.000Z' },
    });
    feed(account, { type: 'rate-limit-lifted' });
    expect(latest()).toMatchObject({ connection: 'online', problem: null });
  });

  test('a lifted rate limit leaves another problem showing', () => {
    feed(account, { type: 'offline', error: networkError });
    const before = statuses.length;
    feed(account, { type: 'rate-limit-lifted' });
    expect(statuses).toHaveLength(before);
    expect(board.status(account)).toMatchObject({ connection: 'offline', problem: { kind: 'network' } });
  });
});

describe('after the first sync', () => {
  /** A later pull's page of a collection, none of its items new; `notModified`: a 304, nothing written. */
  const polledPages = (collection: 'tasks' | 'projects' = 'tasks', notModified = 0) =>
    feed(account, {
      type: 'progress',
      collection,
      scope: '',
      pagesDone: 1,
      itemsDone: 1000,
      estimatedTotal: null,
      notModified,
    });

  beforeEach(() => {
    loadTasks(mirror, [{ task_id: 'tsk_polled', title: 'Polled', status: 'not_started', tags: [] }]);
    tracked = initialAccountSyncState(mirror.passes.state('tasks')?.completedAt ?? null);
    expect(account.sync.firstSync).toBeNull();
  });

  test('a poll that received pages but changed nothing tells the screens nothing; its changes, when it has some, do', async () => {
    feed(account, { type: 'sync-started', reason: 'poll-hot', tier: 'hot' });
    polledPages();
    feed(account, { type: 'sync-finished', reason: 'poll-hot', summary: { ...summary([]), pulled: 1000 } });
    await settle();
    expect(changes).toEqual([]);
    expect(latest()?.syncing).toBe(false);

    const task = { task_id: 'tsk_polled', title: 'Renamed', status: 'not_started', tags: [] };
    feed(account, {
      type: 'changes',
      changes: [
        {
          collection: 'tasks',
          id: 'tsk_polled',
          kind: 'updated',
          fields: [{ field: 'title', before: 'Polled', after: 'Renamed' }],
          resource: task,
        },
      ],
      notifications: [],
    });
    feed(account, {
      type: 'sync-finished',
      reason: 'poll-hot',
      summary: { ...summary([]), pulled: 1000, changes: 1 },
    });
    await settle();
    expect(changes.flatMap((change) => change.collections)).toContain('tasks');
    expect(changes.some((change) => change.task_ids?.includes('tsk_polled'))).toBe(true);
  });

  test('a later pull that fails after writing pages tells the collections it wrote, its changes event never having come', async () => {
    feed(account, { type: 'sync-started', reason: 'poll-full', tier: 'full' });
    polledPages('projects', 1);
    polledPages();
    feed(account, { type: 'sync-failed', reason: 'poll-full', error: networkError });
    await settle();
    // The projects' one page was a 304: nothing written there.
    expect(changes).toEqual([{ account_id: 'acct-1', collections: ['tasks'], task_ids: null, remapped: [] }]);
  });

  test('a sync that sent changes tells the screens what each settled, by kind and id, and nothing about the rest', async () => {
    feed(account, { type: 'sync-started', reason: 'sync-now', tier: 'full' });
    feed(account, {
      type: 'pushed',
      opId: 'op-1',
      entityType: 'task',
      entityId: 'local-1',
      kind: 'create',
      serverId: 'tsk_1',
    });
    feed(account, { type: 'id-remapped', entityType: 'task', from: 'local-1', to: 'tsk_1' });
    feed(account, {
      type: 'merged',
      opId: 'op-2',
      entityType: 'task',
      entityId: 'tsk_polled',
      rebased: ['title'],
      taken: ['status'],
      settled: [],
    });
    feed(account, {
      type: 'pushed',
      opId: 'op-3',
      entityType: 'section',
      entityId: 'local-s',
      kind: 'create',
      serverId: 'sec_1',
    });
    polledPages();
    feed(account, {
      type: 'sync-finished',
      reason: 'sync-now',
      summary: { ...summary([]), pulled: 1000, pushed: 3, failed: 0 },
    });
    await settle();
    expect(changes).toEqual([
      { account_id: 'acct-1', collections: ['tasks'], task_ids: ['local-1', 'tsk_1'], remapped: [] },
      {
        account_id: 'acct-1',
        collections: ['tasks'],
        task_ids: ['local-1', 'tsk_1'],
        remapped: [{ from: 'local-1', to: 'tsk_1' }],
      },
      // The server's side of a merge is in the mirror before the rest is sent again.
      { account_id: 'acct-1', collections: ['tasks'], task_ids: ['tsk_polled'], remapped: [] },
      { account_id: 'acct-1', collections: ['sections', 'tasks'], task_ids: null, remapped: [] },
    ]);
  });
});

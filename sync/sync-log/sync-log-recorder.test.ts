// The recorder on a real sync: an engine syncing from the emulator over HTTP,
// a server error retried, a conflict with the peer, all landing in a real log
// file with statuses, durations and request ids, a clean merge after a 412,
// and no token in the report.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { type PullFixture, startPullFixture } from '../pull/testing/pull-fixture';
import { diagnosticsReport } from './diagnostics-report';
import { SyncLog } from './sync-log';
import { eventEntry, recordSyncActivity } from './sync-log-recorder';

let fixture: PullFixture | null = null;
let log: SyncLog | null = null;
let dir: string | null = null;

afterEach(async () => {
  log?.close();
  log = null;
  await fixture?.close();
  fixture = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

test('requests, a retried server error, the sync summary, a conflict and a clean merge are logged; the report holds no token', async () => {
  const f = await startPullFixture({ seedTasks: 200 });
  fixture = f;
  dir = mkdtempSync(join(tmpdir(), 'sync-log-recorder-'));
  const syncLog = new SyncLog(join(dir, 'acc.sync-log.db'), { secrets: () => [f.emulator.tokens.live] });
  log = syncLog;
  const stop = recordSyncActivity(syncLog, { api: f.api, subscribe: (l) => f.engine.subscribe(l) });

  f.emulator.control.faults.serverErrors(1, { method: 'GET', pathPrefix: '/v1/projects' });
  await f.engine.syncOnce();

  const requests = syncLog.query({ kinds: ['request'], limit: 1000 }).entries;
  expect(requests.length).toBeGreaterThan(5);
  expect(requests.every((e) => e.method === 'GET' && e.status !== null && e.durationMs !== null)).toBe(true);
  expect(requests.filter((e) => e.requestId !== null).length).toBeGreaterThan(0);
  expect(requests.some((e) => e.path?.startsWith('/v1/tasks'))).toBe(true);

  const [retry] = syncLog.query({ kinds: ['retry'] }).entries;
  expect(retry).toMatchObject({ level: 'warn', method: 'GET', status: 500 });
  expect(retry?.path).toMatch(/^\/v1\/projects/);

  expect(syncLog.query({ kinds: ['sync'], text: 'finished' }).entries).toHaveLength(1);

  const mine = f.emulator.control
    .tasks()
    .find((t) => t.assignee === f.emulator.me.username && t.status !== 'completed');
  if (!mine) throw new Error('the seed has no open task of mine');
  f.mirror.tasks.edit(mine.task_id, { title: 'Mine, locally' });
  f.emulator.control.peerEdit(mine.task_id, { title: 'Theirs, remotely' });
  await f.engine.syncOnce();
  const [conflict] = syncLog.query({ kinds: ['conflict'] }).entries;
  expect(conflict?.message).toContain(`task ${mine.task_id}: title changed on both sides`);
  expect(syncLog.query({ text: 'Mine, locally' }).entries).toEqual([]);
  expect(
    syncLog.query({ kinds: ['request'], levels: ['info'], text: '→ 304' }).entries.length,
  ).toBeGreaterThan(0);

  // A clean merge after a 412: my field goes out again on top of the peer's change, and the log says so.
  const other = f.emulator.control
    .tasks()
    .find((t) => t.task_id !== mine.task_id && t.assignee === f.emulator.me.username);
  if (!other) throw new Error('the seed has no second task of mine');
  f.mirror.tasks.edit(other.task_id, { due_date: '2031-01-02' });
  f.emulator.control.peerEdit(other.task_id, { title: 'Renamed by the peer' });
  await f.engine.syncOnce();
  const [merge] = syncLog.query({ kinds: ['merge'], text: other.task_id }).entries;
  expect(merge).toMatchObject({ level: 'info' });
  expect(merge?.message).toContain(
    `task ${other.task_id} changed on the server since the edit (412): merged cleanly`,
  );
  expect(merge?.message).toContain('mine re-sent: due_date');
  expect(f.emulator.control.task(other.task_id)).toMatchObject({
    title: 'Renamed by the peer',
    due_date: '2031-01-02',
  });

  stop();
  const before = syncLog.count();
  await f.engine.syncOnce();
  expect(syncLog.count()).toBe(before);

  const report = diagnosticsReport({
    entries: syncLog.query({ limit: 1000 }).entries,
    context: { account: f.emulator.me.username },
    people: [f.emulator.me.username, f.emulator.me.user_id],
    secrets: [f.emulator.tokens.live],
    salt: syncLog.salt,
    generatedAt: new Date().toISOString(),
  });
  expect(report).not.toContain(f.emulator.tokens.live);
  expect(report).not.toContain(f.emulator.tokens.live.slice(9, 20));
  expect(report).toContain('500');
});

test('requests held for the window’s end, its budget spent, make a line; a 429’s wait is its request’s line already', () => {
  expect(eventEntry({ type: 'rate-limited', retryAfterSeconds: 42, cause: 'budget' })).toMatchObject({
    level: 'info',
    kind: 'connectivity',
    message: "requests held 42 s: this minute's budget is spent",
  });
  expect(eventEntry({ type: 'rate-limited', retryAfterSeconds: 42, cause: 'answer' })).toBeNull();
});

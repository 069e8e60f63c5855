// The attachments' content cache against the emulator over HTTP, with a real
// mirror file: the content of the tasks a person is likely to open (the
// comments' rule) is downloaded and no other, a task opened joins them, the
// cache stays within its size by evicting the least recently used, and the
// copy of an upload still waiting is never evicted.
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AttachmentFiles, sha256Hex } from '../../db/attachments/attachment-files';
import type { Mirror } from '../../db/mirror';
import { openMirror } from '../../db/open-mirror';
import { callApi } from '../../emulator/emulator-http';
import { startEmulator, type RunningEmulator } from '../../emulator/start';
import { ApiClient } from '../api/api-client';
import { staticCredentials } from '../api/credentials';
import { runCliInProcess } from '../cli/testing/in-process-cli';
import { SyncEngine } from '../engine/sync-engine';
import { AttachmentCache } from './attachment-cache';
import { queueUpload } from './attachment-upload';

let emulator: RunningEmulator;
let dir: string;
let db: string;
let mirror: Mirror | null;
let api: ApiClient;

beforeEach(async () => {
  emulator = await startEmulator({ seedTasks: 40 });
  dir = await mkdtemp(join(tmpdir(), 'svc-attachment-cache-'));
  db = join(dir, 'mirror.db');
  api = new ApiClient({ baseUrl: emulator.baseUrl, credentials: staticCredentials(emulator.tokens.live) });
  mirror = null;
});

afterEach(async () => {
  mirror?.close();
  await api.close();
  await emulator.stop();
  await rm(dir, { recursive: true, force: true });
});

async function upload(taskId: string, name: string, text: string): Promise<string> {
  const form = new FormData();
  form.set('task_id', taskId);
  form.set('file', new Blob([new TextEncoder().encode(text)]), name);
  const answer = await callApi(emulator, 'POST', '/v1/task-attachments', { form });
  expect(answer.status, answer.text).toBe(201);
  return String(answer.body.sha256);
}

async function syncAndOpen(): Promise<Mirror> {
  const run = await runCliInProcess(['sync', '--base-url', emulator.baseUrl, '--db', db], {
    env: { SVC_TOKEN: emulator.tokens.live },
  });
  expect(run.code, run.stderr).toBe(0);
  mirror = await openMirror(db);
  return mirror;
}

function cacheOf(opened: Mirror, limitBytes: number): AttachmentCache {
  return new AttachmentCache({
    mirror: opened,
    api,
    files: AttachmentFiles.beside(db),
    username: emulator.me.username,
    now: () => Date.now(),
    limitBytes: () => limitBytes,
  });
}

/** The likely-opened set as the comment watch computes it, and one task outside it. */
function watchedAndNot(opened: Mirror): { watched: string; other: string } {
  const watch = opened.openings.commentWatch({
    username: emulator.me.username,
    today: new Date().toISOString().slice(0, 10),
    openedSince: new Date(Date.now() - 30 * 86_400_000).toISOString(),
    limit: 1000,
  });
  const other = emulator.control.tasks().find((t) => !watch.includes(t.task_id));
  expect(watch.length).toBeGreaterThan(0);
  expect(other).toBeDefined();
  return { watched: watch[0]!, other: other!.task_id };
}

test("only the likely-opened tasks' content is downloaded; a task opened joins them", async () => {
  const first = await syncAndOpen();
  const { watched, other } = watchedAndNot(first);
  first.close();
  mirror = null;
  const mine = await upload(watched, 'mine.txt', 'on a task I will open');
  const theirs = await upload(other, 'theirs.txt', 'on a task I never open');
  const opened = await syncAndOpen();
  const files = AttachmentFiles.beside(db);

  const fill = await cacheOf(opened, 1024 ** 3).fill();
  expect(fill.downloaded).toHaveLength(1);
  expect(files.has(mine)).toBe(true);
  expect(files.has(theirs)).toBe(false);

  opened.openings.record(other);
  const after = await cacheOf(opened, 1024 ** 3).fill();
  expect(after.downloaded).toHaveLength(1);
  expect(files.has(theirs)).toBe(true);
  expect(after.use).toEqual({
    files: 2,
    bytes: 'on a task I will open'.length + 'on a task I never open'.length,
  });
});

test('over its size the cache evicts the least recently used, never the copy of an upload still waiting', async () => {
  const opened = await syncAndOpen();
  const files = AttachmentFiles.beside(db);
  const contents = ['a'.repeat(100), 'b'.repeat(100), 'c'.repeat(100)];
  const kept = contents.map((text) => files.keep(new TextEncoder().encode(text)).sha256);
  // Used in this order, long ago: a first, then b, then c.
  for (const [i, sha] of kept.entries()) {
    const at = new Date(Date.now() - (10 - i) * 60_000);
    await utimes(files.pathOf(sha), at, at);
  }
  const waiting = files.keep(new TextEncoder().encode('w'.repeat(100)));
  const at = new Date(Date.now() - 3_600_000);
  await utimes(files.pathOf(waiting.sha256), at, at);
  queueUpload(opened, {
    task_id: emulator.control.tasks()[0]!.task_id,
    file_name: 'waiting.txt',
    content_type: 'text/plain',
    size_bytes: waiting.size,
    sha256: waiting.sha256,
  });
  // b read just now: the most recently used.
  expect(files.read(kept[1]!)).not.toBeNull();

  const evicted = cacheOf(opened, 250).evict();
  expect(evicted).toEqual([kept[0], kept[2]]);
  expect(files.has(waiting.sha256)).toBe(true);
  expect(files.has(kept[1]!)).toBe(true);
  expect(files.use()).toEqual({ files: 2, bytes: 200 });
  expect(sha256Hex(files.read(kept[1]!)!)).toBe(kept[1]);
});

test("the app's engine fills the cache behind a full sync, without the sync waiting for it", async () => {
  const first = await syncAndOpen();
  const { watched } = watchedAndNot(first);
  const mine = await upload(watched, 'mine.txt', 'kept for offline');
  const engine = new SyncEngine({
    mirror: first,
    api,
    me: emulator.me,
    pullInWorker: false,
    attachmentCache: { limitBytes: () => 1024 ** 3 },
  });
  try {
    await engine.syncOnce();
    await engine.attachmentCacheIdle();
    expect(AttachmentFiles.beside(db).has(mine)).toBe(true);
  } finally {
    await engine.close();
  }
});

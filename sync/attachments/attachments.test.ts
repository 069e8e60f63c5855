// Attachments through the headless command against the emulator over HTTP,
// with a real SQLite mirror: every attachment of the mirrored tasks mirrored
// and listed per task (gone ones leave after a complete pass), a file added
// offline checked, copied and uploaded once by the next sync, each refusal
// before queuing and by the service (a failed change with its reason), a 503
// that waits, an upload at the 25 MB limit, and a download resumed with
// `Range` after a cut connection.
import { createHash } from 'node:crypto';
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import { openMirror } from '../../db/open-mirror';
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import { callApi } from '../../emulator/emulator-http';
import type { RunningEmulator } from '../../emulator/start';
import { EICAR_SIGNATURE } from '../../emulator/uploads/malware-scan';
import { UPLOAD_LIMIT_BYTES } from '../../protocol/upload-rules';
import { windowsExecutable } from '../../protocol/testing/upload-samples';
import { cliBenchPerTest } from '../cli/testing/cli-bench';
import { ndjson, runCliInProcess } from '../cli/testing/in-process-cli';
import { queueUpload } from './attachment-upload';

let emulator: RunningEmulator;
let dir: string;
let db: string;
let taskId: string;
cliBenchPerTest({ seedTasks: 20 }, 'svc-attachments-', (bench) => {
  ({ emulator, dir, db } = bench);
  taskId = emulator.control.tasks()[0]!.task_id;
});

const env = () => ({ SVC_TOKEN: emulator.tokens.live });
const cli = (argv: string[]) => runCliInProcess(argv, { env: env() });
const sync = () => cli(['sync', '--base-url', emulator.baseUrl, '--db', db]);
/** The attachment's content, from the kept copy or else the service (`attachment get`). */
const getContent = (attachmentId: string) =>
  cli(['attachment', 'get', '--base-url', emulator.baseUrl, '--db', db, '--attachment', attachmentId]);
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');

/** Someone uploads a file to a task through the service. */
async function uploadOnService(task: string, name: string, bytes: Uint8Array | string) {
  const form = new FormData();
  form.set('task_id', task);
  form.set('file', new Blob([typeof bytes === 'string' ? new TextEncoder().encode(bytes) : bytes]), name);
  const answer = await callApi(emulator, 'POST', '/v1/task-attachments', { form });
  expect(answer.status, answer.text).toBe(201);
  return { id: String(answer.body.attachment_id), etag: answer.headers.get('etag') ?? '' };
}

async function listed(task: string) {
  const run = await cli(['attachment', 'list', '--db', db, '--task', task]);
  expect(run.code, run.stderr).toBe(0);
  return ndjson(run.stdout);
}

async function fileOf(name: string, bytes: Uint8Array | string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

async function outbox() {
  const mirror = await openMirror(db);
  try {
    return mirror.outbox.list(UNSETTLED_STATES);
  } finally {
    mirror.close();
  }
}

describe('attachment records in the mirror', () => {
  test("every mirrored task's attachments are listed per task; one deleted, and a deleted task's, leave after the next complete pass", async () => {
    const other = emulator.control.tasks()[1]!.task_id;
    const first = await uploadOnService(taskId, 'notes.txt', 'first notes');
    await uploadOnService(taskId, 'more.txt', 'more notes');
    await uploadOnService(other, 'other.txt', 'elsewhere');
    expect((await sync()).code).toBe(0);

    expect(await listed(taskId)).toMatchObject([
      {
        attachment_id: first.id,
        task_id: taskId,
        file_name: 'notes.txt',
        content_type: 'text/plain',
        size_bytes: 11,
        sha256: sha256('first notes'),
        created_by: emulator.me.username,
      },
      { file_name: 'more.txt', size_bytes: 10 },
    ]);
    expect((await listed(taskId))[0]!.created_at).toEqual(expect.any(String));
    expect(await listed(other)).toHaveLength(1);

    // Unchanged: the list is revalidated with its page ETag and answered 304.
    expect((await sync()).code).toBe(0);
    const asked = emulator.control.requests().filter((r) => r.path === '/v1/task-attachments');
    expect(asked.at(-1)).toMatchObject({ status: 304 });

    const removed = await callApi(emulator, 'DELETE', `/v1/task-attachments/${first.id}`, {
      headers: { 'if-match': first.etag },
    });
    expect(removed.status).toBe(204);
    emulator.control.peerDelete(other);
    expect((await sync()).code).toBe(0);
    expect((await listed(taskId)).map((a) => a.file_name)).toEqual(['more.txt']);
    expect(await listed(other)).toEqual([]);
  });
});

describe('adding a file', () => {
  test('added offline: checked, copied at once, listed as waiting; the next sync uploads it once under its Idempotency-Key', async () => {
    expect((await sync()).code).toBe(0);
    const path = await fileOf('plan.txt', 'the plan, in words');
    const added = await cli(['attachment', 'add', '--db', db, '--task', taskId, '--file', path]);
    expect(added.code, added.stderr).toBe(0);
    const queued = ndjson(added.stdout)[0]!;
    expect(queued).toMatchObject({
      queued: true,
      file_name: 'plan.txt',
      content_type: 'text/plain',
      size_bytes: 18,
    });
    // The original may change or go: the app sends its own copy.
    await writeFile(path, 'changed since');
    expect(await listed(taskId)).toMatchObject([
      { file_name: 'plan.txt', pending: 'queued', created_at: null },
    ]);
    expect(emulator.control.attachments()).toEqual([]);

    const synced = await sync();
    expect(synced.code, synced.stderr).toBe(0);
    const served = emulator.control.attachments();
    expect(served).toMatchObject([
      { task_id: taskId, file_name: 'plan.txt', sha256: sha256('the plan, in words') },
    ]);
    const uploads = emulator.control
      .requests()
      .filter((r) => r.method === 'POST' && r.path === '/v1/task-attachments');
    expect(uploads.map((r) => r.idempotencyKey)).toEqual([queued.op_id]);
    expect(await listed(taskId)).toEqual([
      expect.objectContaining({ attachment_id: served[0]!.attachment_id, file_name: 'plan.txt' }),
    ]);
    expect((await listed(taskId))[0]).not.toHaveProperty('pending');
    expect(await outbox()).toEqual([]);
  });

  test.each([
    [
      'an executable by its name',
      'setup.exe',
      windowsExecutable(),
      'upload-type-not-allowed',
      'Allowed types',
    ],
    [
      'an executable named .png',
      'photo.png',
      windowsExecutable(),
      'upload-type-mismatch',
      'its contents are',
    ],
    [
      'HTML by its bytes, named .txt',
      'page.txt',
      '<!DOCTYPE html><html><body>hi</body></html>',
      'upload-type-',
      'HTML',
    ],
  ])(
    "%s is refused before anything is queued, in the contract's words",
    async (_case, name, bytes, type, words) => {
      expect((await sync()).code).toBe(0);
      const path = await fileOf(name, bytes);
      const run = await cli(['attachment', 'add', '--db', db, '--task', taskId, '--file', path]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(type);
      expect(run.stderr).toContain(words);
      expect(run.stderr).toContain('nothing was queued');
      expect(await outbox()).toEqual([]);
      expect(AttachmentFiles.beside(db).use().files).toBe(0);
    },
  );

  test('a file over 25 MB is refused on its size before it is read', async () => {
    expect((await sync()).code).toBe(0);
    const path = join(dir, 'big.txt');
    await writeFile(path, '');
    await truncate(path, UPLOAD_LIMIT_BYTES + 1);
    const run = await cli(['attachment', 'add', '--db', db, '--task', taskId, '--file', path]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/upload-too-large/);
    expect(run.stderr).toContain('25 MB');
    expect(await outbox()).toEqual([]);
  });

  test('a file of exactly 25 MB is uploaded whole and its content read back from the kept copy', async () => {
    expect((await sync()).code).toBe(0);
    const bytes = Buffer.alloc(UPLOAD_LIMIT_BYTES, 'a');
    const path = await fileOf('large.txt', bytes);
    expect((await cli(['attachment', 'add', '--db', db, '--task', taskId, '--file', path])).code).toBe(0);
    const synced = await sync();
    expect(synced.code, synced.stderr).toBe(0);
    const [served] = emulator.control.attachments();
    expect(served).toMatchObject({ size_bytes: UPLOAD_LIMIT_BYTES, sha256: sha256(bytes) });
    const got = await getContent(served!.attachment_id);
    expect(got.code, got.stderr).toBe(0);
    expect(ndjson(got.stdout)[0]).toMatchObject({ cached: true, size_bytes: UPLOAD_LIMIT_BYTES });
  });
});

describe('refused or held by the service', () => {
  /** Queues bytes as a file the app accepted (as if judged by an older version's rules), then syncs. */
  async function queueAndSync(name: string, bytes: Uint8Array, contentType: string) {
    expect((await sync()).code).toBe(0);
    const mirror = await openMirror(db);
    try {
      const kept = AttachmentFiles.beside(db).keep(bytes);
      queueUpload(mirror, {
        task_id: taskId,
        file_name: name,
        content_type: contentType,
        size_bytes: kept.size,
        sha256: kept.sha256,
      });
    } finally {
      mirror.close();
    }
    return sync();
  }

  test.each([
    [
      'a test signature the malware scan refuses',
      'eicar.txt',
      Buffer.from(EICAR_SIGNATURE, 'latin1'),
      'text/plain',
      422,
      'upload-rejected',
    ],
    [
      'an executable under a .png name',
      'photo.png',
      Buffer.from(windowsExecutable()),
      'image/png',
      415,
      'upload-type-mismatch',
    ],
    [
      'a file over the limit',
      'big.txt',
      Buffer.alloc(UPLOAD_LIMIT_BYTES + 1, 'a'),
      'text/plain',
      413,
      'upload-too-large',
    ],
  ])(
    "%s is a failed change with the service's reason, and nothing is on the service",
    async (_case, name, bytes, type, status, problem) => {
      await queueAndSync(name, bytes, type);
      const [op] = await outbox();
      expect(op).toMatchObject({ entityType: 'attachment', kind: 'create', state: 'failed' });
      expect(op!.lastProblem).toMatchObject({ status, type: problem });
      expect(String((op!.lastProblem as { detail: string }).detail)).not.toBe('');
      expect(emulator.control.attachments()).toEqual([]);
      expect(await listed(taskId)).toMatchObject([{ file_name: name, pending: 'failed' }]);
    },
  );

  test('a 503 while the scan cannot run waits (queued, not refused) until its Retry-After, kept on the change, and the upload goes once the service can scan', async () => {
    emulator.control.setMalwareScan(false, 1);
    const held = await queueAndSync('notes.txt', Buffer.from('hello'), 'text/plain');
    expect(held.code).toBe(1);
    const [op] = await outbox();
    expect(op).toMatchObject({ state: 'queued' });
    expect(op!.lastProblem).toMatchObject({ status: 503, type: 'upload-rejected', retry_after_seconds: 1 });
    expect(emulator.control.attachments()).toEqual([]);

    // Past the client's own retries, the wait is kept on the change: a push before Retry-After does not take it.
    const waitUntil = String((op!.lastProblem as { wait_until?: unknown }).wait_until);
    expect(Date.parse(waitUntil) - Date.parse(op!.updatedAt)).toBe(1000);
    const sendable = async (now: string) => {
      const mirror = await openMirror(db, { now: () => now });
      try {
        return mirror.outbox.ready().map((ready) => ready.opId);
      } finally {
        mirror.close();
      }
    };
    expect(await sendable(new Date(Date.parse(waitUntil) - 1).toISOString())).toEqual([]);
    expect(await sendable(waitUntil)).toEqual([op!.opId]);

    emulator.control.setMalwareScan(true);
    // (Waiting out the service's second on the clock, not timing anything.)
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(waitUntil) - Date.now() + 5)));
    expect((await sync()).code).toBe(0);
    expect(emulator.control.attachments()).toHaveLength(1);
    expect(await outbox()).toEqual([]);
  });
});

describe('downloading content', () => {
  test('a download cut mid-body goes on with Range from the bytes kept, and the content is checked against its sha256', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => 'abcdefghij'[i % 10]).join(''));
    const { id } = await uploadOnService(taskId, 'long.txt', bytes);
    expect((await sync()).code).toBe(0);
    emulator.control.faults.dropConnections(1, {
      pathPrefix: `/v1/task-attachments/${id}/content`,
      method: 'GET',
    });
    const got = await getContent(id);
    expect(got.code, got.stderr).toBe(0);
    const content = ndjson(got.stdout)[0]!;
    expect(content).toMatchObject({ cached: false, sha256: sha256(bytes), size_bytes: bytes.length });
    expect(content.resumed_from).toBeGreaterThan(0);
    expect(content.resumed_from).toBeLessThan(bytes.length);
    expect(sha256(await readFile(String(content.path)))).toBe(sha256(bytes));
    // Kept: the next get asks nothing of the service.
    const before = emulator.control.requests().length;
    expect(ndjson((await getContent(id)).stdout)[0]).toMatchObject({ cached: true });
    expect(emulator.control.requests().length).toBe(before);
  });
});

describe('renaming and deleting', () => {
  test('a rename and a delete are queued offline and sent with If-Match by the next sync', async () => {
    const { id, etag } = await uploadOnService(taskId, 'draft.txt', 'draft words');
    expect((await sync()).code).toBe(0);
    const renamed = await cli([
      'attachment',
      'rename',
      '--db',
      db,
      '--attachment',
      id,
      '--set',
      'file_name=final.txt',
    ]);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(await listed(taskId)).toMatchObject([{ file_name: 'final.txt', pending: 'queued' }]);
    expect((await sync()).code).toBe(0);
    expect(emulator.control.attachments()).toMatchObject([{ attachment_id: id, file_name: 'final.txt' }]);
    const patch = emulator.control
      .requests()
      .find((r) => r.method === 'PATCH' && r.path === `/v1/task-attachments/${id}`);
    expect(patch?.ifMatch).toBe(etag);

    const current = (await callApi(emulator, 'GET', `/v1/task-attachments/${id}`)).headers.get('etag');
    expect((await cli(['attachment', 'delete', '--db', db, '--attachment', id])).code).toBe(0);
    expect(await listed(taskId)).toEqual([]);
    expect((await sync()).code).toBe(0);
    expect(emulator.control.attachments()).toEqual([]);
    const removal = emulator.control
      .requests()
      .find((r) => r.method === 'DELETE' && r.path === `/v1/task-attachments/${id}`);
    expect(removal).toMatchObject({ status: 204, ifMatch: current });
  });

  test('--help says every attachment verb', async () => {
    const run = await cli(['attachment', '--help']);
    expect(run.code).toBe(0);
    for (const verb of ['list', 'add', 'get', 'rename', 'delete'])
      expect(run.stderr).toContain(`attachment ${verb} --db FILE`);
  });
});

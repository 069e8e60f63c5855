// A headless sync killed (SIGKILL, as kill -9) while it uploads an attachment:
// the service took the upload but its answer never reached the app. The next
// sync sends the kept copy again under the same Idempotency-Key, and the
// service ends with exactly one attachment, which the mirror then lists once.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { openMirror } from '../../db/open-mirror';
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import type { RunningEmulator } from '../../emulator/start';
import { cliBenchPerTest } from './testing/cli-bench';
import { ndjson, runCliInProcess } from './testing/in-process-cli';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'svc-desktop.js');

let emulator: RunningEmulator;
let dir: string;
let db: string;
cliBenchPerTest({ seedTasks: 20 }, 'svc-attachment-crash-', (bench) => ({ emulator, dir, db } = bench));

const cli = (argv: string[]) => runCliInProcess(argv, { env: { SVC_TOKEN: emulator.tokens.live } });
const sync = () => cli(['sync', '--base-url', emulator.baseUrl, '--db', db]);

async function unsettled() {
  const mirror = await openMirror(db);
  try {
    return mirror.outbox.list(UNSETTLED_STATES);
  } finally {
    mirror.close();
  }
}

test('killed with SIGKILL while the upload is at the service: after a restart the service holds exactly one attachment', async () => {
  const taskId = emulator.control.tasks()[0]!.task_id;
  expect((await sync()).code).toBe(0);
  const path = join(dir, 'report.txt');
  await writeFile(path, 'the quarterly report');
  const added = await cli(['attachment', 'add', '--db', db, '--task', taskId, '--file', path]);
  expect(added.code, added.stderr).toBe(0);
  const opId = String(ndjson(added.stdout)[0]!.op_id);

  // The upload reaches the service and waits there; the sync that sent it is killed meanwhile.
  const held = emulator.control.faults.hold({ pathPrefix: '/v1/task-attachments', method: 'POST' });
  const child = spawn(process.execPath, [BIN, 'sync', '--base-url', emulator.baseUrl, '--db', db, '--once'], {
    env: { ...process.env, SVC_TOKEN: emulator.tokens.live },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await Promise.race([
    held.arrived,
    exited.then(() => Promise.reject(new Error(`sync ended first: ${stderr}`))),
  ]);
  child.kill('SIGKILL');
  expect((await exited)[1]).toBe('SIGKILL');
  // Then the service goes on with it: the attachment is made, its answer has nowhere to go.
  const made = new Promise<void>((resolve) => {
    const poll = () => (emulator.control.attachmentUploads() > 0 ? resolve() : setTimeout(poll, 10));
    poll();
  });
  held.release();
  await made;
  expect(await unsettled()).toMatchObject([{ opId, state: 'in_flight', attempts: 1 }]);

  const restarted = await sync();
  expect(restarted.code, restarted.stderr).toBe(0);
  expect(emulator.control.attachments()).toHaveLength(1);
  expect(emulator.control.attachmentUploads()).toBe(1);
  const uploads = emulator.control
    .requests()
    .filter((r) => r.method === 'POST' && r.path === '/v1/task-attachments');
  expect(uploads.map((r) => r.idempotencyKey)).toEqual([opId, opId]);
  const listed = await cli(['attachment', 'list', '--db', db, '--task', taskId]);
  expect(ndjson(listed.stdout)).toEqual([
    expect.objectContaining({
      attachment_id: emulator.control.attachments()[0]!.attachment_id,
      file_name: 'report.txt',
    }),
  ]);
  expect(await unsettled()).toEqual([]);
});

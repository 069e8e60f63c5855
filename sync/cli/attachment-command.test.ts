// A file attached from the headless command and sent by its sync: the person
// running it in a terminal sees the upload go, a line at each tenth of the
// body from 0% to 100%, not the pusher's ten events a second.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { RunningEmulator } from '../../emulator/start';
import { cliBenchPerTest } from './testing/cli-bench';
import { ndjson, runCliInProcess } from './testing/in-process-cli';

let emulator: RunningEmulator;
let dir: string;
let db: string;
cliBenchPerTest({ seedTasks: 5 }, 'svc-attachment-command-', (bench) => ({ emulator, dir, db } = bench));

const cli = (argv: string[]) => runCliInProcess(argv, { env: { SVC_TOKEN: emulator.tokens.live } });

test("sync tells an upload's progress on stderr, a line a tenth, from 0% to the whole body", async () => {
  const taskId = emulator.control.tasks()[0]!.task_id;
  expect((await cli(['sync', '--base-url', emulator.baseUrl, '--db', db, '--once'])).code).toBe(0);
  const path = join(dir, 'notes.txt');
  await writeFile(path, 'a line of notes\n'.repeat(300_000));
  const added = await cli(['attachment', 'add', '--db', db, '--task', taskId, '--file', path]);
  expect(added.code, added.stderr).toBe(0);
  const attachmentId = String(ndjson(added.stdout)[0]!.attachment_id);

  const synced = await cli(['sync', '--base-url', emulator.baseUrl, '--db', db, '--once']);
  expect(synced.code, synced.stderr).toBe(0);
  const lines = synced.stderr.split('\n').filter((line) => line.startsWith('push: uploading'));
  const told = lines.map((line) => {
    const parts = /^push: uploading attachment (\S+): (\d+)% \((\d+) of (\d+) bytes\)$/.exec(line);
    expect(parts, line).not.toBeNull();
    return { id: parts![1], percent: Number(parts![2]), sent: Number(parts![3]), total: Number(parts![4]) };
  });
  expect(new Set(told.map((t) => t.id))).toEqual(new Set([attachmentId]));
  expect(told[0]).toMatchObject({ percent: 0, sent: 0 });
  expect(told.at(-1)!.percent).toBe(100);
  expect(told.at(-1)!.sent).toBe(told.at(-1)!.total);
  // The whole form: the file and its part's headers.
  expect(told.at(-1)!.total).toBeGreaterThan(4_800_000);
  for (let i = 1; i < told.length; i += 1) expect(told[i]!.percent).toBeGreaterThan(told[i - 1]!.percent);
  expect(told.length).toBeLessThanOrEqual(11);
  expect(emulator.control.attachments()).toMatchObject([{ task_id: taskId, file_name: 'notes.txt' }]);
});

// npm speaks for itself (a failed `npm install` says why), and the commands
// whose output tools read stay exact without silencing npm for everyone: the
// README runs the emulator as `npm run --silent emulator`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

test("the project's npm config does not silence npm, so a failed install prints its error", () => {
  const run = spawnSync(npm, ['config', 'get', 'loglevel', '--location=project'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  expect(run.stdout.trim()).not.toBe('silent');
});

let emulator: ChildProcess | undefined;
afterEach(async () => {
  if (emulator?.pid !== undefined && emulator.exitCode === null && emulator.signalCode === null) {
    // npm, its shell, tsx and the emulator's node share one process group: stop all of them.
    process.kill(-emulator.pid, 'SIGTERM');
    await once(emulator, 'exit');
  }
});

test("the README's `npm run --silent emulator` prints the emulator's JSON line first", async () => {
  emulator = spawn(npm, ['run', '--silent', 'emulator', '--', '--port', '0', '--seed-tasks', '3'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  const lines = createInterface({ input: emulator.stdout as NonNullable<ChildProcess['stdout']> });
  const [first] = (await once(lines, 'line')) as [string];
  const info = JSON.parse(first) as { base_url: string };
  expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
});

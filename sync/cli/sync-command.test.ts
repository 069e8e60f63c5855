import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/start';
import { startRelayProxy } from '../pull/testing/relay-proxy';
import { cliBenchPerTest } from './testing/cli-bench';
import { runCliInProcess } from './testing/in-process-cli';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'bin', 'svc-desktop.js');
const SUMMARY_KEYS = [
  'blocked',
  'conflicts',
  'failed',
  'not_modified',
  'pulled',
  'pushed',
  'requests',
  'tasks',
];

let emulator: RunningEmulator;
let dir: string;
let db: string;
cliBenchPerTest({ seedTasks: 40 }, 'svc-cli-', (bench) => ({ emulator, dir, db } = bench));

interface Run {
  code: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function lastLine(run: Run): Record<string, number> & { failed: Record<string, unknown>[] } {
  const lines = run.stdout.trimEnd().split('\n');
  return JSON.parse(lines.at(-1) ?? '') as Record<string, number> & { failed: Record<string, unknown>[] };
}

function cli(argv: string[], env: Record<string, string | undefined> = {}, stdin?: string): Promise<Run> {
  return runCliInProcess(argv, { env, ...(stdin !== undefined ? { stdin } : {}) });
}

function spawnCli(
  command: string,
  args: string[],
  env: Record<string, string> = {},
): { done: Promise<Run>; child: ReturnType<typeof spawn>; stderrSoFar: () => string } {
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
    stdout,
    stderr,
  }));
  return { done, child, stderrSoFar: () => stderr };
}

const syncArgs = () => ['sync', '--base-url', emulator.baseUrl, '--db', db];

describe('sync through the installed bin', () => {
  test('--once on a new mirror: exit 0, progress on stderr, the summary as the last stdout line (token from SVC_TOKEN)', async () => {
    const run = await spawnCli(process.execPath, [BIN, ...syncArgs(), '--once'], {
      SVC_TOKEN: emulator.tokens.live,
    }).done;

    expect(run.code, run.stderr).toBe(0);
    const summary = lastLine(run);
    expect(Object.keys(summary).sort()).toEqual(SUMMARY_KEYS);
    expect(summary).toMatchObject({
      pushed: 0,
      conflicts: 0,
      tasks: emulator.control.taskCount(),
      not_modified: 0,
    });
    expect(summary.pulled).toBeGreaterThan(emulator.control.taskCount());
    expect(summary.requests).toBe(emulator.control.requests().length);
    expect(run.stderr).toContain('pull tasks:');
  });

  test('--watch syncs until SIGTERM, then exits 0 with the summary', async () => {
    const started = spawnCli(process.execPath, [
      BIN,
      ...syncArgs(),
      '--watch',
      '--token',
      emulator.tokens.live,
    ]);
    while (!started.stderrSoFar().includes('pull tasks:')) {
      if (started.child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    started.child.kill('SIGTERM');
    const run = await started.done;

    expect(run.code, run.stderr).toBe(0);
    expect(lastLine(run)).toMatchObject({ tasks: emulator.control.taskCount(), conflicts: 0 });
  });

  test('output into a pipe its reader closed ends the command quietly with exit 0, no stack trace (issue 22)', async () => {
    const synced = await cli([...syncArgs(), '--token', emulator.tokens.live]);
    expect(synced.code, synced.stderr).toBe(0);
    // As `export --db m.db | head -c 100`: the reader is gone before (or while) the command writes.
    const started = spawnCli(process.execPath, [BIN, 'export', '--db', db]);
    started.child.stdout?.destroy();
    const run = await started.done;
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
  });

  test('npm run cli runs the same command', async () => {
    const run = await spawnCli('npm', [
      'run',
      '--silent',
      'cli',
      '--',
      'outbox',
      '--db',
      join(dir, 'none.db'),
    ]).done;
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('no mirror at');
  });
});

describe('sync in process', () => {
  test('queued edits and creates go out in the next sync; a re-sync revalidates with 304s', async () => {
    expect((await cli([...syncArgs(), '--token', emulator.tokens.live])).code).toBe(0);
    const taskId = emulator.control.tasks()[0]?.task_id as string;
    expect((await cli(['edit', '--db', db, '--task', taskId, '--set', 'title=Edited headless'])).code).toBe(
      0,
    );
    expect((await cli(['create', '--db', db, '--set', 'title=Created headless'])).code).toBe(0);
    const before = emulator.control.taskCount();

    const run = await cli([...syncArgs(), '--once'], { SVC_TOKEN: emulator.tokens.live });

    expect(run.code, run.stderr).toBe(0);
    const summary = lastLine(run);
    expect(summary).toMatchObject({ pushed: 2, conflicts: 0, tasks: before + 1 });
    expect(summary.not_modified).toBeGreaterThan(0);
    expect(emulator.control.task(taskId)?.title).toBe('Edited headless');
    expect(emulator.control.tasks().filter((t) => t.title === 'Created headless')).toHaveLength(1);
    expect((await cli(['outbox', '--db', db])).stdout).toBe('');
  });

  test('an unchanged re-sync by a new run pulls nothing: every read, /v1/me included, is revalidated', async () => {
    expect((await cli([...syncArgs(), '--token', emulator.tokens.live])).code).toBe(0);

    const again = await cli([...syncArgs(), '--once'], { SVC_TOKEN: emulator.tokens.live });

    expect(again.code, again.stderr).toBe(0);
    expect(lastLine(again)).toMatchObject({ pulled: 0, tasks: emulator.control.taskCount() });
    expect(lastLine(again).not_modified).toBeGreaterThan(0);
  });

  test('a sync whose sections keep failing still mirrors every task, exits 1 and names sections in the summary; the next sync exits 0', async () => {
    emulator.control.faults.serverErrors(10_000, { pathPrefix: '/v1/sections' });

    // A short time budget: sections are not tried again after the client's own retries.
    const run = await cli([...syncArgs(), '--token', emulator.tokens.live, '--time-budget', '0']);

    expect(run.code, run.stderr).toBe(1);
    const summary = lastLine(run);
    expect(summary.tasks).toBe(emulator.control.taskCount());
    expect(summary.failed).toEqual([
      {
        collection: 'sections',
        scope: '',
        skipped_because: null,
        kind: 'problem',
        type: 'internal',
        status: 500,
        message: expect.stringContaining('sections.list') as unknown,
      },
    ]);
    expect(run.stderr).toContain('sync: sections could not be synced: sections.list: 500 internal');

    emulator.control.faults.clear();
    const again = await cli([...syncArgs(), '--token', emulator.tokens.live]);
    expect(again.code, again.stderr).toBe(0);
    expect(lastLine(again).failed).toEqual([]);
  });

  test('--time-budget must be a number of seconds', async () => {
    const run = await cli([...syncArgs(), '--token', emulator.tokens.live, '--time-budget', 'soon']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--time-budget takes a number of seconds');
  });

  test('a sync that leaves a conflict exits 1 and counts it; resolving and syncing again exits 0', async () => {
    await cli([...syncArgs(), '--token', emulator.tokens.live]);
    const taskId = emulator.control.tasks()[0]?.task_id as string;
    await cli(['edit', '--db', db, '--task', taskId, '--set', 'title=Mine']);
    emulator.control.peerEdit(taskId, { title: 'Theirs' });

    const run = await cli([...syncArgs(), '--token', emulator.tokens.live]);

    expect(run.code).toBe(1);
    expect(lastLine(run)).toMatchObject({ conflicts: 1, pushed: 0 });
    expect(run.stderr).toContain('resolve --db');
    const conflicts = await cli(['conflicts', '--db', db]);
    const conflictId = (JSON.parse(conflicts.stdout) as { conflict_id: string }).conflict_id;
    expect((await cli(['resolve', '--db', db, '--conflict', conflictId, '--take', 'mine'])).code).toBe(0);

    const again = await cli([...syncArgs(), '--token', emulator.tokens.live]);
    expect(again.code, again.stderr).toBe(0);
    expect(lastLine(again)).toMatchObject({ conflicts: 0, pushed: 1 });
    expect(emulator.control.task(taskId)?.title).toBe('Mine');
  });

  test('a read-only token: the edit is blocked, the sync exits 1 and says what to do', async () => {
    await cli([...syncArgs(), '--token', emulator.tokens.live]);
    const taskId = emulator.control.tasks()[0]?.task_id as string;
    await cli(['edit', '--db', db, '--task', taskId, '--set', 'title=Not with a test token']);

    const run = await cli([...syncArgs(), '--token', emulator.tokens.test]);

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('may not write');
    expect(JSON.parse((await cli(['outbox', '--db', db])).stdout)).toMatchObject({ state: 'blocked' });
    // A writable token later: the blocked edit goes.
    expect((await cli([...syncArgs(), '--token', emulator.tokens.live])).code).toBe(0);
    expect(emulator.control.task(taskId)?.title).toBe('Not with a test token');
  });

  test('a revoked or unknown token exits 3, leaves the outbox alone, and still prints the summary', async () => {
    await cli([...syncArgs(), '--token', emulator.tokens.live]);
    const taskId = emulator.control.tasks()[0]?.task_id as string;
    await cli(['edit', '--db', db, '--task', taskId, '--set', 'title=Waits for a sign-in']);
    const outboxBefore = (await cli(['outbox', '--db', db])).stdout;
    const minted = emulator.control.mintToken({ scopes: ['tasks:write'] });
    emulator.control.revokeToken(minted.record.token_id);

    for (const token of [minted.token, 'svc_live_unknown']) {
      const run = await cli([...syncArgs(), '--token', token]);
      expect(run.code).toBe(3);
      expect(run.stderr).toContain('get a new token');
      expect(Object.keys(lastLine(run)).sort()).toEqual(SUMMARY_KEYS);
    }
    expect((await cli(['outbox', '--db', db])).stdout).toBe(outboxBefore);
  });

  test('a mirror of another organization is refused with what to do', async () => {
    await cli([...syncArgs(), '--token', emulator.tokens.live]);
    const other = await startEmulator({ seedTasks: 2, seed: 7 });
    try {
      if (other.orgId === emulator.orgId) return; // same seed data: nothing to tell apart
      const run = await cli(['sync', '--base-url', other.baseUrl, '--db', db, '--token', other.tokens.live]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('use another --db');
    } finally {
      await other.stop();
    }
  });

  test('an unreachable service exits 1 and keeps the queue', async () => {
    const run = await cli([
      'sync',
      '--base-url',
      'http://127.0.0.1:9',
      '--db',
      db,
      '--token',
      emulator.tokens.live,
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('check --base-url');
    expect(lastLine(run)).toMatchObject({ pulled: 0, pushed: 0 });
  });
});

describe('where a pasted token goes, and from where it is read (issue 27)', () => {
  const WARNING = 'can be read by other users of this computer in the process list';

  test.each([
    ['plain http to a host name', 'http://api.example.com', /must use https/],
    [
      'plain http to localhost, a name the resolver may send elsewhere',
      'http://localhost:1',
      /must use https/,
    ],
    ['a user name and password in the address', 'https://me:pw@api.example.com', /user name or password/],
    ['an address that is not one', 'not a url', /not a valid URL/],
  ])('%s is refused before anything is sent (exit 2)', async (_what, baseUrl, reason) => {
    const run = await cli(['sync', '--base-url', baseUrl, '--db', db], { SVC_TOKEN: emulator.tokens.live });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).not.toContain(emulator.tokens.live);
  });

  test('--token works and says that other users can see it; SVC_TOKEN does not warn', async () => {
    const given = await cli([...syncArgs(), '--token', emulator.tokens.live]);
    expect(given.code, given.stderr).toBe(0);
    expect(given.stderr).toContain(WARNING);
    const fromEnv = await cli(syncArgs(), { SVC_TOKEN: emulator.tokens.live });
    expect(fromEnv.code).toBe(0);
    expect(fromEnv.stderr).not.toContain(WARNING);
  });

  test('--token-file reads the token from a file, or from standard input with -', async () => {
    const file = join(dir, 'token.txt');
    await writeFile(file, `${emulator.tokens.live}\n`, { mode: 0o600 });
    const fromFile = await cli([...syncArgs(), '--token-file', file]);
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stderr).not.toContain(WARNING);
    const fromStdin = await cli([...syncArgs(), '--token-file', '-'], {}, ` ${emulator.tokens.live}\n`);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
  });

  test.each([
    ['a missing file', ['--token-file', '/nonexistent/token'], /cannot be read \(ENOENT\)/],
    ['both ways at once', ['--token', 'x', '--token-file', '-'], /not both/],
  ])('%s is refused with one line (exit 2)', async (_what, args, message) => {
    const run = await cli([...syncArgs(), ...args], {}, 'svc_live_x');
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test('a token file holding more than one word is refused, and its contents are not printed', async () => {
    const file = join(dir, 'token.txt');
    await writeFile(file, `${emulator.tokens.live} ${emulator.tokens.test}\n`);
    const run = await cli([...syncArgs(), '--token-file', file]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('must hold one token and nothing else');
    expect(run.stderr).not.toContain(emulator.tokens.live);
  });
});

describe('who the token is', () => {
  const meRequests = () => emulator.control.requests().filter((r) => r.path === '/v1/me').length;

  test('one run asks /v1/me once, on a new mirror and again on a re-sync', async () => {
    expect((await cli([...syncArgs(), '--token', emulator.tokens.live])).code).toBe(0);
    expect(meRequests()).toBe(1);

    emulator.control.clearRequests();
    const again = await cli([...syncArgs(), '--token', emulator.tokens.live]);

    expect(again.code, again.stderr).toBe(0);
    expect(meRequests()).toBe(1);
    expect(lastLine(again).requests).toBe(emulator.control.requests().length);
  });

  test('a service whose /v1/me names no organization: the organizations list says which, and the sync succeeds', async () => {
    const relay = await startRelayProxy(emulator.baseUrl);
    relay.rewrite = (url, body) => {
      if (url.split('?')[0] !== '/v1/me') return body;
      const { org_id: _dropped, ...rest } = JSON.parse(body) as Record<string, unknown>;
      return JSON.stringify(rest);
    };
    try {
      const run = await cli([
        'sync',
        '--base-url',
        relay.baseUrl,
        '--db',
        db,
        '--token',
        emulator.tokens.live,
      ]);

      expect(run.code, run.stderr).toBe(0);
      expect(lastLine(run)).toMatchObject({ tasks: emulator.control.taskCount(), conflicts: 0, failed: [] });
      expect(meRequests()).toBe(1);
    } finally {
      await relay.close();
    }
  });
});

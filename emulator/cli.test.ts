// `npm run emulator`: the first stdout line is exactly the JSON object tools
// read to connect, the server answers on it, and SIGTERM stops it cleanly.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

interface FirstLine {
  base_url: string;
  auth_url: string;
  client_id: string;
  org_id: string;
  admin_secret: string;
  tokens: { live: string; test: string; peer: string };
}

const root = join(import.meta.dirname, '..');

// The emulator's own process, Node with tsx as its loader (what `npm run emulator`'s tsx starts),
// signalled directly. Through npx the signal is not passed on (the emulator would be orphaned); through
// tsx's binary it is relayed over IPC, which on a loaded machine came after tsx gave up and exited 143.
function run(args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'emulator/cli.ts', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

let child: ChildProcess;
let firstLine: string;
let info: FirstLine;

beforeAll(async () => {
  child = run(['--port', '0', '--seed', '7', '--seed-tasks', '40', '--latency-ms', '1']);
  const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
  [firstLine] = (await once(lines, 'line')) as [string];
  info = JSON.parse(firstLine) as FirstLine;
});
afterAll(async () => {
  if (child.exitCode === null && child.signalCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

describe('the emulator command', () => {
  test('prints one JSON object with exactly the connection fields as its first line', () => {
    expect(firstLine.trim().startsWith('{')).toBe(true);
    expect(Object.keys(info).sort()).toEqual([
      'admin_secret',
      'auth_url',
      'base_url',
      'client_id',
      'org_id',
      'tokens',
    ]);
    expect(Object.keys(info.tokens).sort()).toEqual(['live', 'peer', 'test']);
    expect(info.base_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.auth_url).toBe(info.base_url);
    expect(info.client_id).toBe('svcc_desktop');
    expect(info.tokens.live).toMatch(/^svc_live_/);
    expect(info.tokens.test).toMatch(/^svc_test_/);
    expect(info.tokens.peer).toMatch(/^svc_live_/);
  });

  test('answers on that address with those tokens: live and peer are two members of the organization', async () => {
    const me = (token: string) =>
      fetch(`${info.base_url}/v1/me`, { headers: { authorization: `Bearer ${token}` } }).then(
        (r) => r.json() as Promise<{ username: string; org_id: string }>,
      );
    const [main, peer] = await Promise.all([me(info.tokens.live), me(info.tokens.peer)]);
    expect(main.org_id).toBe(info.org_id);
    expect(peer.org_id).toBe(info.org_id);
    expect(main.username).not.toBe(peer.username);
    const tasks = await fetch(`${info.base_url}/v1/tasks?limit=1000`, {
      headers: { authorization: `Bearer ${info.tokens.test}` },
    });
    expect(((await tasks.json()) as { data: unknown[] }).data).toHaveLength(40);
    const counts = await fetch(`${info.base_url}/_emulator/counts`, {
      headers: { 'x-emulator-admin': info.admin_secret },
    });
    expect(counts.status).toBe(200);
  });

  test('stops cleanly on SIGTERM', async () => {
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  test('refuses an argument it does not know, with exit code 2', async () => {
    const bad = run(['--colour', 'red']);
    const [code] = (await once(bad, 'exit')) as [number | null];
    expect(code).toBe(2);
  });
});

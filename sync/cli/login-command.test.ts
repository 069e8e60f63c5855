// The headless `login` against the emulator over real HTTP: the command run as
// a process with --no-browser (the test reads the address from stderr and
// plays the browser), the refresh token kept in a 0600 file beside the
// database and found again by resolveStoredCredentials; refusals in process.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { secretFileBesideDatabase } from '../auth/secret-store';
import { consentBrowser } from '../auth/testing/consent-browser';
import {
  type LoginIo,
  browserCommand,
  loginFileBesideDatabase,
  resolveStoredCredentials,
  runLogin,
} from './login-command';
import { runCli } from './run-cli';
import { meOfStoredSignIn } from './testing/stored-sign-in';

let emulator: RunningEmulator;
let directory: string;
let database: string;

beforeAll(async () => {
  emulator = await startEmulator({ seedTasks: 3, oauthAutoApprove: true });
});
afterAll(async () => {
  await emulator.stop();
});
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'svc-login-'));
  database = join(directory, 'mirror.sqlite');
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const AUTHORIZE_LINE = /^\s+(http\S+\/oauth\/authorize\?\S+)$/m;

function serverArgs(): string[] {
  return ['--base-url', emulator.baseUrl, '--auth-url', emulator.authUrl, '--client-id', emulator.clientId];
}

/** Captures a command's output; `address` settles with the sign-in address once it is printed. */
function capturedIo(
  extra: Partial<LoginIo> = {},
): LoginIo & { out: () => string; err: () => string; address: Promise<string> } {
  let out = '';
  let err = '';
  let found: (url: string) => void = () => undefined;
  const address = new Promise<string>((resolve) => (found = resolve));
  return {
    stdout: (text: string) => {
      out += text;
    },
    stderr: (text: string) => {
      err += text;
      const match = AUTHORIZE_LINE.exec(err);
      if (match?.[1]) found(match[1]);
    },
    env: {},
    out: () => out,
    err: () => err,
    address,
    ...extra,
  };
}

async function signedInAs(dbPath: string): Promise<string> {
  return (await meOfStoredSignIn(dbPath)).username;
}

async function cliRun(argv: string[]): Promise<{ code: number; err: string }> {
  let err = '';
  const code = await runCli(argv, { stdout: () => undefined, stderr: (text) => (err += text), env: {} });
  return { code, err };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

test('login as a process: prints the address, waits for the browser, keeps the refresh token beside the database for sync', async () => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'sync/cli/login-command.ts', ...serverArgs(), '--db', database, '--no-browser'],
    { cwd: process.cwd(), env: { ...process.env, SVC_BASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const exited = exitOf(child);
  let stderr = '';
  let stdout = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const address = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const match = AUTHORIZE_LINE.exec(stderr);
      if (match?.[1]) resolve(match[1]);
    });
    void exited.then((code) =>
      reject(new Error(`login exited (${code}) before printing an address:\n${stderr}`)),
    );
  });

  const browser = consentBrowser();
  browser.openUrl(address);
  const landing = await browser.finished;
  expect(landing.status).toBe(200);
  expect(await exited).toBe(0);

  expect(stdout).toContain(`Signed in as ${emulator.me.username}`);
  const secretsFile = secretFileBesideDatabase(database);
  expect(stderr).toContain('No OS keychain is reachable');
  expect(stderr).toContain(secretsFile);
  expect(stderr).not.toMatch(/svcr_|svc_live_/);
  expect(JSON.parse(await readFile(secretsFile, 'utf8'))).toEqual({
    'refresh-token:database': expect.stringMatching(/^svcr_/) as unknown,
  });
  if (process.platform !== 'win32') expect((await stat(secretsFile)).mode & 0o777).toBe(0o600);
  expect(await readFile(loginFileBesideDatabase(database), 'utf8')).not.toMatch(/svcr_|svc_live_/);

  // What `sync --db FILE` does without --token.
  const stored = await resolveStoredCredentials(database);
  expect(stored).toMatchObject({
    baseUrl: emulator.baseUrl,
    authUrl: emulator.authUrl,
    clientId: emulator.clientId,
    identity: { user_id: emulator.me.user_id, org_id: emulator.orgId },
  });
  expect(await signedInAs(database)).toBe(emulator.me.username);
});

describe('in process', () => {
  test('without a stored sign-in, sync finds nothing', async () => {
    expect(await resolveStoredCredentials(database)).toBeNull();
  });

  test('signing in again to the same database as the same user rotates the stored sign-in', async () => {
    for (let round = 0; round < 2; round += 1) {
      const io = capturedIo();
      const running = runLogin([...serverArgs(), '--db', database, '--no-browser'], io);
      consentBrowser().openUrl(await io.address);
      expect(await running).toBe(0);
    }
    expect(await signedInAs(database)).toBe(emulator.me.username);
  });

  test('sync takes the kept sign-in only to its own server: another --base-url is refused and reached by nothing (issue 27)', async () => {
    const io = capturedIo();
    const running = runLogin([...serverArgs(), '--db', database, '--no-browser'], io);
    consentBrowser().openUrl(await io.address);
    expect(await running).toBe(0);
    // Something listening on another loopback origin, as a capture server would.
    const seen: (string | undefined)[] = [];
    const capture = createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.end('{}');
    });
    capture.listen(0, '127.0.0.1');
    await once(capture, 'listening');
    const elsewhere = `http://127.0.0.1:${(capture.address() as AddressInfo).port}`;
    try {
      for (const baseUrl of [elsewhere, 'https://api.example.com', 'http://api.example.com']) {
        const run = await cliRun(['sync', '--db', database, '--base-url', baseUrl, '--once']);
        expect(run.code, baseUrl).toBe(2);
        expect(run.err).toContain('is refused for the sign-in kept by login');
      }
      expect(seen).toEqual([]);
      // Its own server, given by name, syncs.
      expect((await cliRun(['sync', '--db', database, '--base-url', emulator.baseUrl, '--once'])).code).toBe(
        0,
      );
    } finally {
      capture.close();
    }
  });

  test('a database that mirrors another account is refused, and its stored sign-in is untouched', async () => {
    const login = loginFileBesideDatabase(database);
    const other = {
      version: 1,
      base_url: emulator.baseUrl,
      auth_url: emulator.authUrl,
      client_id: emulator.clientId,
      identity: { user_id: 'usr_someone_else', username: 'someone', email: null, org_id: emulator.orgId },
      signed_in_at: '2026-01-01T00:00:00.000Z',
    };
    await writeFile(login, JSON.stringify(other));
    const io = capturedIo();
    const running = runLogin([...serverArgs(), '--db', database, '--no-browser'], io);
    consentBrowser().openUrl(await io.address);

    expect(await running).toBe(1);
    expect(io.err()).toMatch(/This account is someone .*but the sign-in was for/);
    expect(JSON.parse(await readFile(login, 'utf8'))).toEqual(other);
    await expect(readFile(secretFileBesideDatabase(database), 'utf8')).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  test('declining on the consent page fails with a clear message', async () => {
    emulator.control.setOAuthAutoApprove(false);
    try {
      const io = capturedIo();
      const running = runLogin([...serverArgs(), '--db', database, '--no-browser'], io);
      consentBrowser({ decision: 'deny' }).openUrl(await io.address);
      expect(await running).toBe(1);
      expect(io.err()).toContain('Sign-in failed: Sign-in was declined on the consent page');
    } finally {
      emulator.control.setOAuthAutoApprove(true);
    }
    expect(await resolveStoredCredentials(database)).toBeNull();
  });

  test('a browser that cannot be opened is reported, and the printed address still completes the sign-in', async () => {
    const io = capturedIo({ openBrowser: () => Promise.reject(new Error('no display')) });
    const running = runLogin([...serverArgs(), '--db', database], io);
    consentBrowser().openUrl(await io.address);
    expect(await running).toBe(0);
    expect(io.err()).toContain('Could not open a browser; open the address above yourself.');
  });

  test('Ctrl-C while waiting ends the sign-in', async () => {
    const cancel = new AbortController();
    const io = capturedIo({ signal: cancel.signal });
    const running = runLogin([...serverArgs(), '--db', database, '--no-browser'], io);
    await io.address;
    cancel.abort();
    expect(await running).toBe(1);
    expect(io.err()).toContain('Sign-in was cancelled.');
  });

  test.each([
    [['--base-url', 'http://127.0.0.1:1'], /needs --db FILE/, 2],
    [['--db', 'x.sqlite', '--bogus'], /Unknown option '--bogus'/, 2],
    [['--db', 'x.sqlite', '--base-url', 'http://api.example.com'], /must use https/, 1],
    [['--db', 'x.sqlite'], /no server address is configured/, 1],
  ])('arguments %j are refused before anything starts', async (args, message, code) => {
    const io = capturedIo();
    expect(await runLogin(args, io)).toBe(code);
    expect(io.err()).toMatch(message);
  });
});

test.each([
  ['darwin', 'open', ['https://a.example/oauth/authorize?x=1&y=2']],
  ['linux', 'xdg-open', ['https://a.example/oauth/authorize?x=1&y=2']],
  ['win32', 'cmd', ['/d', '/s', '/c', 'start "" "https://a.example/oauth/authorize?x=1&y=2"']],
] as const)('on %s the browser is opened with %s', (platform, command, args) => {
  expect(browserCommand(platform, 'https://a.example/oauth/authorize?x=1&y=2')).toMatchObject({
    command,
    args,
  });
});

// The BUILT main process (out/main/index.js) started in plain Node with a
// stand-in for the `electron` module (support/fake-electron.ts), since the
// Electron binary cannot run here. It checks what only index.ts decides: the
// order of the wiring, that every handler is behind the window, the hardened
// window, the tray, better-sqlite3 loaded only through the addon path main
// computes (as packaged: node_modules holds no build of it), `npm run demo` signing in at launch, and quitting after the
// services closed.
import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { electronAddonDirectory, SQLITE_ADDON_FILE } from '../../main/native/sqlite-addon';

const ROOT = resolve(import.meta.dirname, '../..');

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'svc-electron-main-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/**
 * A copy of the built app whose node_modules holds the fake electron beside
 * links to the real packages, and Node's better-sqlite3 build where main looks
 * for Electron's (node_modules/.cache/...), so main really loads it from there.
 */
function stageApp(): string {
  const appDir = join(directory, 'app');
  cpSync(join(ROOT, 'out', 'main'), join(appDir, 'out', 'main'), { recursive: true });
  writeFileSync(join(appDir, 'package.json'), JSON.stringify({ name: 'svc-desktop', type: 'module' }));
  const modules = join(appDir, 'node_modules');
  mkdirSync(modules, { recursive: true });
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === 'electron' || name === 'better-sqlite3' || name === '.cache' || name === '.bin') continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  // better-sqlite3 as the packaged app has it (electron-builder.yml): its JavaScript without
  // its Node build, so only the addon main passes as nativeBinding can open a database.
  const sqlite = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
  cpSync(sqlite, join(modules, 'better-sqlite3'), {
    recursive: true,
    filter: (source) => !/[\\/](build|deps|src)$/.test(source),
  });
  const fake = join(modules, 'electron');
  mkdirSync(fake);
  copyFileSync(join(ROOT, 'test/e2e/support/fake-electron.ts'), join(fake, 'index.ts'));
  writeFileSync(
    join(fake, 'package.json'),
    JSON.stringify({ name: 'electron', type: 'module', exports: './index.ts' }),
  );
  const addonDir = electronAddonDirectory(appDir, process.platform, process.arch);
  mkdirSync(addonDir, { recursive: true });
  const nodeAddon = join(sqlite, 'build', 'Release', SQLITE_ADDON_FILE);
  copyFileSync(nodeAddon, join(addonDir, SQLITE_ADDON_FILE));
  return appDir;
}

interface Step {
  step: string;
  detail: unknown;
}

/** Runs the built main until it quits; its steps, in order. */
function runMain(
  appDir: string,
  env: Record<string, string>,
): Promise<{ steps: Step[]; code: number | null }> {
  const tsx = join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs');
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', tsx, join(appDir, 'out', 'main', 'index.js')], {
      cwd: appDir,
      env: {
        PATH: process.env['PATH'] ?? '',
        FAKE_APP_PATH: appDir,
        FAKE_USER_DATA: join(directory, 'user-data'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', fail);
    child.on('exit', (code) => {
      clearTimeout(timer);
      const steps = out
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Step);
      if (code !== 0) fail(new Error(`main exited with ${code}\n${err}\n${out}`));
      else done({ steps, code });
    });
  });
}

function detailOf(steps: Step[], name: string): unknown {
  return steps.find((s) => s.step === name)?.detail;
}

test('the built main wires every handler behind a hardened window and a tray, and quits after closing', async () => {
  const { steps } = await runMain(stageApp(), {});
  const names = steps.map((s) => s.step);
  expect(names.slice(0, 3)).toEqual(['register-schemes', 'sandbox', 'single-instance-lock']);
  expect(names).not.toContain('error-box');
  expect(names).toContain('csp-header-hook');
  expect(names).toContain('permission-request-handler');
  expect(detailOf(steps, 'protocol-client')).toBe('svc-desktop');
  // The window first, before the accounts open (an older app's mirror may take seconds to upgrade); the tray after them.
  expect(names.indexOf('window')).toBeLessThan(names.indexOf('tray'));
  expect(detailOf(steps, 'window')).toMatchObject({
    webPreferences: { contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true },
  });
  expect(String(detailOf(steps, 'load-url'))).toMatch(/^app:\/\//);
  expect(detailOf(steps, 'app:info')).toEqual({
    ok: true,
    value: { name: 'svc-desktop', version: '0.0.0-smoke', platform: process.platform },
  });
  expect(detailOf(steps, 'accounts:secret-storage')).toEqual({
    ok: true,
    value: { persistence: 'encrypted' },
  });
  expect(detailOf(steps, 'untrusted-frame')).toMatchObject({
    ok: false,
    error: { type: 'untrusted-sender' },
  });
  // Quitting: held once for the services to close (tray gone), then for real.
  expect(names.filter((n) => n === 'app.quit')).toHaveLength(2);
  expect(names.indexOf('tray-destroyed')).toBeGreaterThan(names.indexOf('app.quit'));
  expect(names.at(-1)).toBe('quit-done');
  // One gate: nothing but it listens on ipcMain.
  expect(detailOf(steps, 'ipc-channels')).toEqual(['svc:invoke']);
  // Sync catches up when the computer wakes.
  expect(detailOf(steps, 'power-monitor')).toBe('resume');
});

test('npm run demo: the built main starts the demo emulator and signs in to it at launch, syncing', async () => {
  const { steps } = await runMain(stageApp(), { SVC_DEMO: '1' });
  expect(detailOf(steps, 'demo-signed-in')).toMatchObject({ demo: true, state: 'signed-in', current: true });
  expect(detailOf(steps, 'sync:status')).toMatchObject({ ok: true });
  // The computer woke: the account's new and hot tiers pulled at once.
  expect(String(detailOf(steps, 'woke-sync'))).toMatch(/^sync finished \(woke\)/);
  expect(steps.at(-1)?.step).toBe('quit-done');
}, 120_000);

test('a link the OS sends before the app is ready, and one a second launch passes, reach the page routed', async () => {
  const { steps } = await runMain(stageApp(), { FAKE_OPEN_URL: 'svc-desktop://task/tsk_1' });
  const names = steps.map((s) => s.step);
  expect(names.indexOf('open-url-handled')).toBeLessThan(names.indexOf('ready'));
  // No account is signed in: the link is refused with its notice, never acted on.
  expect(detailOf(steps, 'link:take')).toMatchObject({
    ok: true,
    value: { kind: 'refused', problem: 'link-task-not-found' },
  });
  expect(detailOf(steps, 'link:take-second')).toMatchObject({
    ok: true,
    value: { kind: 'refused', problem: 'link-malformed' },
  });
  const announced = steps.filter(
    (s) => s.step === 'event-sent' && JSON.stringify(s.detail).includes('"link:received"'),
  );
  expect(announced).toHaveLength(2);
  expect(steps.at(-1)?.step).toBe('quit-done');
});

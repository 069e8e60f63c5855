import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import {
  addonFromTarball,
  fetchPinnedPrebuild,
  PREBUILD_PINS_FILE,
  prebuildAssetName,
  prebuildHost,
  readPrebuildPins,
  recordPrebuildPins,
  sha256Of,
  writePrebuildPins,
  type PrebuildTarget,
} from './addon-prebuild';
import { pinTarget } from './pin-electron-addon-prebuilds';

const target: PrebuildTarget = {
  betterSqlite3: '12.11.1',
  electronAbi: '150',
  platform: 'linux',
  arch: 'x64',
  libc: '',
};
const ADDON_BYTES = Buffer.from('a stand-in for better_sqlite3.node\n');

let directory: string;
/** A prebuild tarball as better-sqlite3 publishes it, made by the system's tar. */
let tarball: Buffer;
/** What the local host serves, by path; and every path asked. */
const served = new Map<string, Buffer>();
const asked: string[] = [];
let server: Server;
let host: string;

function makeTarball(root: string, addon: Buffer): Buffer {
  mkdirSync(join(root, 'build', 'Release'), { recursive: true });
  writeFileSync(join(root, 'build', 'Release', 'better_sqlite3.node'), addon);
  writeFileSync(join(root, 'build', 'Release', 'obj.target'), 'not the addon');
  const out = join(root, 'prebuild.tar.gz');
  const made = spawnSync('tar', [
    '-czf',
    out,
    '-C',
    root,
    'build/Release/obj.target',
    'build/Release/better_sqlite3.node',
  ]);
  if (made.status !== 0) throw new Error(`tar failed: ${made.stderr.toString()}`);
  return readFileSync(out);
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'svc-prebuild-'));
  tarball = makeTarball(join(directory, 'pack'), ADDON_BYTES);
  server = createServer((req, res) => {
    asked.push(req.url ?? '');
    const body = served.get(req.url ?? '');
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}/download`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(directory, { recursive: true, force: true });
});

beforeEach(() => {
  served.clear();
  asked.length = 0;
});

const assetPath = `/download/v12.11.1/${prebuildAssetName(target)}`;

/**
 * fetchPinnedPrebuild from the test host for `asked` into `<folder>/better_sqlite3.node`,
 * with one pin: the usual target's asset, pinned to the hash of `pinned`.
 */
async function fetchPinnedTo(folder: string, pinned: Buffer, asked: PrebuildTarget = target) {
  const destination = join(directory, folder, 'better_sqlite3.node');
  const outcome = await fetchPinnedPrebuild({
    host,
    target: asked,
    pins: { [prebuildAssetName(target)]: sha256Of(pinned) },
    destination,
  });
  return { destination, outcome };
}

describe('a better-sqlite3 prebuild for Electron is taken only when its SHA-256 is pinned (issue 27)', () => {
  test('the tarball is asked for by the name prebuild-install uses, which is also its pin', () => {
    expect(prebuildAssetName(target)).toBe('better-sqlite3-v12.11.1-electron-v150-linux-x64.tar.gz');
    expect(prebuildAssetName({ ...target, libc: 'musl', arch: 'arm64' })).toBe(
      'better-sqlite3-v12.11.1-electron-v150-linuxmusl-arm64.tar.gz',
    );
    expect(prebuildHost({})).toBe('https://github.com/WiseLibs/better-sqlite3/releases/download');
    expect(prebuildHost({ npm_config_better_sqlite3_binary_host: 'https://mirror.example/b/' })).toBe(
      'https://mirror.example/b',
    );
  });

  test('a pinned prebuild is downloaded, and its addon written where the build looks', async () => {
    served.set(assetPath, tarball);
    const { destination, outcome } = await fetchPinnedTo('pinned', tarball);
    expect(outcome).toEqual({ ok: true, file: destination, sha256: sha256Of(tarball) });
    expect(readFileSync(destination)).toEqual(ADDON_BYTES);
  });

  test('a tampered prebuild is refused and nothing of it is written', async () => {
    const tampered = makeTarball(join(directory, 'tampered'), Buffer.from('someone else’s code\n'));
    served.set(assetPath, tampered);
    const { destination, outcome } = await fetchPinnedTo('tampered-out', tarball);
    expect(outcome).toMatchObject({ ok: false, requested: true });
    const reason = outcome.ok ? '' : outcome.reason;
    expect(reason).toContain(`SHA-256 ${sha256Of(tampered)}, pinned ${sha256Of(tarball)}`);
    expect(existsSync(destination)).toBe(false);
    expect(asked).toEqual([assetPath]);
  });

  test('a version with no pin is not downloaded at all', async () => {
    served.set(assetPath, tarball);
    const other = { ...target, betterSqlite3: '12.12.0' };
    served.set(`/download/v12.12.0/${prebuildAssetName(other)}`, tarball);
    const { destination, outcome } = await fetchPinnedTo('unpinned', tarball, other);
    expect(outcome).toMatchObject({ ok: false, requested: false });
    expect(outcome.ok ? '' : outcome.reason).toContain('npm run native:pin-prebuilds');
    expect(asked).toEqual([]);
    expect(existsSync(destination)).toBe(false);
  });

  test('a pinned tarball that holds no addon is refused', async () => {
    const empty = join(directory, 'empty');
    mkdirSync(empty, { recursive: true });
    writeFileSync(join(empty, 'README'), 'nothing here');
    spawnSync('tar', ['-czf', join(empty, 'x.tar.gz'), '-C', empty, 'README']);
    const bytes = readFileSync(join(empty, 'x.tar.gz'));
    served.set(assetPath, bytes);
    const { destination, outcome } = await fetchPinnedTo('no-addon', bytes);
    expect(outcome).toMatchObject({ ok: false, reason: expect.stringContaining('holds no') as unknown });
    expect(existsSync(destination)).toBe(false);
  });

  test('native:pin-prebuilds records the hash of what the host serves, and the next download is taken by it', async () => {
    served.set(assetPath, tarball);
    const pinsFile = join(directory, 'record', PREBUILD_PINS_FILE);
    writePrebuildPins(pinsFile, { 'better-sqlite3-v1.0.0-electron-v1-linux-x64.tar.gz': 'b'.repeat(64) });
    const lines: string[] = [];
    await recordPrebuildPins({
      host,
      targets: [pinTarget('linux-x64', '12.11.1', '150')],
      pinsFile,
      say: (line) => lines.push(line),
    });
    const pins = readPrebuildPins(pinsFile);
    expect(pins).toEqual({
      'better-sqlite3-v1.0.0-electron-v1-linux-x64.tar.gz': 'b'.repeat(64),
      [prebuildAssetName(target)]: sha256Of(tarball),
    });
    expect(lines).toEqual([`${prebuildAssetName(target)} ${sha256Of(tarball)}`]);
    const outcome = await fetchPinnedPrebuild({
      host,
      target,
      pins,
      destination: join(directory, 'record', 'better_sqlite3.node'),
    });
    expect(outcome.ok).toBe(true);
  });

  test('the committed pin file reads, and a malformed pin is an error rather than no pins', () => {
    expect(() => readPrebuildPins(join(import.meta.dirname, '..', '..', PREBUILD_PINS_FILE))).not.toThrow();
    const bad = join(directory, 'bad.json');
    writeFileSync(bad, JSON.stringify({ pins: { 'x.tar.gz': 'not-hex' } }));
    expect(() => readPrebuildPins(bad)).toThrow(/not a lower-case hex SHA-256/u);
    writeFileSync(bad, '[]');
    expect(() => readPrebuildPins(bad)).toThrow(/expected/u);
  });

  test('the addon is found in a tarball whatever entries come before it', () => {
    expect(addonFromTarball(tarball)).toEqual(ADDON_BYTES);
  });
});

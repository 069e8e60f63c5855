import { createHash } from 'node:crypto';
import {
  appendFileSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { BUILT_IN_ADDON_DIGESTS } from './built-in-addon-digests';
import {
  ADDON_DIGEST_FILE,
  addonCompileCommand,
  addonDigestFor,
  checkAddonDigest,
  readAddonDigests,
  electronAddonDirectory,
  isAddonStampCurrent,
  judgeElectronAddon,
  sqliteNativeBinding,
} from './sqlite-addon';

describe('which better-sqlite3 build the app opens the mirror with', () => {
  const runtime = {
    appPath: '/src/svc-desktop',
    resourcesPath: '/opt/svc/resources',
    platform: 'linux',
    arch: 'x64',
  };

  test('from a checkout: the Electron build in node_modules/.cache, never the Node one', () => {
    const binding = sqliteNativeBinding({ ...runtime, isPackaged: false });
    expect(binding).toBe(
      join(
        '/src/svc-desktop',
        'node_modules',
        '.cache',
        'svc-desktop',
        'electron-addon',
        'linux-x64',
        'better_sqlite3.node',
      ),
    );
    expect(binding.startsWith(electronAddonDirectory('/src/svc-desktop', 'linux', 'x64'))).toBe(true);
  });

  test('packaged: the copy in resources/native, outside the asar', () => {
    expect(sqliteNativeBinding({ ...runtime, isPackaged: true })).toBe(
      join('/opt/svc/resources', 'native', 'better_sqlite3.node'),
    );
  });
});

describe('whether the Electron build is current', () => {
  const wanted = { electron: '45.4.1', betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64' };
  test.each([
    ['the same versions', { ...wanted }, true],
    ['another Electron', { ...wanted, electron: '45.4.0' }, false],
    ['another better-sqlite3', { ...wanted, betterSqlite3: '12.10.0' }, false],
    ['another arch', { ...wanted, arch: 'arm64' }, false],
    ['a missing field', { electron: '45.4.1', betterSqlite3: '12.11.1', platform: 'linux' }, false],
    ['no stamp', undefined, false],
  ])('%s: %s', (_case, stamp, current) => {
    expect(isAddonStampCurrent(stamp, wanted)).toBe(current);
  });
});

describe('judging a build as the Electron one', () => {
  test("refuses node_modules' own build: it loads in Node", () => {
    const addon = createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node');
    expect(judgeElectronAddon(() => process.dlopen({ exports: {} }, addon), '150')).toEqual({
      ok: false,
      reason: 'it loads in Node, so it was built for Node, not Electron',
    });
  });

  const refusal = (abi: number) => () => {
    throw new Error(
      `The module was compiled against a different Node.js version using NODE_MODULE_VERSION ${abi}. ` +
        `This version of Node.js requires NODE_MODULE_VERSION ${process.versions.modules}.`,
    );
  };

  test("accepts a build Node refuses for Electron's ABI", () => {
    expect(judgeElectronAddon(refusal(150), '150')).toEqual({ ok: true });
  });

  test('refuses a build for some other ABI', () => {
    expect(judgeElectronAddon(refusal(140), '150')).toMatchObject({ ok: false });
  });
});

test('compiles against the Electron headers when no pinned prebuild is taken', () => {
  const command = addonCompileCommand({
    electronVersion: '45.4.1',
    arch: 'arm64',
    nodeGypScript: '/g/node-gyp.js',
  });
  expect(command.args).toEqual([
    '/g/node-gyp.js',
    'rebuild',
    '--release',
    '--target=45.4.1',
    '--arch=arm64',
    '--dist-url=https://electronjs.org/headers',
  ]);
});

describe('the addon is checked against the SHA-256 built into the app before it loads', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'svc-addon-'));
  });
  afterEach(() => {
    rmSync(directory, { recursive: true, force: true });
  });

  /** A copy of Node's own build stands in for Electron's: it can be loaded here. */
  function addonCopy(): string {
    const file = join(directory, 'native', 'better_sqlite3.node');
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(
      createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node'),
      file,
    );
    return file;
  }
  const digestOf = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

  test('a file that matches loads', () => {
    const file = addonCopy();
    expect(checkAddonDigest({ file, expected: digestOf(file), isPackaged: true })).toEqual({ ok: true });
    const db = new Database(':memory:', { nativeBinding: file });
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
  });

  test('an altered file is refused, saying what to do', () => {
    const file = addonCopy();
    const expected = digestOf(file);
    appendFileSync(file, Buffer.from([0]));
    const verdict = checkAddonDigest({ file, expected, isPackaged: true });
    expect(verdict).toMatchObject({ ok: false });
    const reason = verdict.ok ? '' : verdict.reason;
    expect(reason).toContain(`expected ${expected}`);
    expect(reason).toContain('Reinstall the app.');
  });

  test('a packaged build that carries no SHA-256 refuses the addon; a checkout (no asar) loads it unchecked', () => {
    const file = addonCopy();
    appendFileSync(file, Buffer.from([0]));
    expect(checkAddonDigest({ file, expected: 'a'.repeat(64), isPackaged: false })).toEqual({ ok: true });
    expect(checkAddonDigest({ file, expected: null, isPackaged: true })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('carries no SHA-256') as unknown,
    });
    expect(checkAddonDigest({ file, expected: null, isPackaged: false })).toEqual({ ok: true });
  });

  test('a missing addon with a SHA-256 to check is refused', () => {
    expect(
      checkAddonDigest({ file: join(directory, 'none.node'), expected: 'a'.repeat(64), isPackaged: true }),
    ).toMatchObject({ ok: false, reason: expect.stringContaining('ENOENT') as unknown });
  });

  test("the build reads each platform's digest from native:electron's cache, and the app picks its own", () => {
    const linux = electronAddonDirectory(directory, 'linux', 'x64');
    const mac = electronAddonDirectory(directory, 'darwin', 'arm64');
    mkdirSync(linux, { recursive: true });
    mkdirSync(mac, { recursive: true });
    mkdirSync(electronAddonDirectory(directory, 'win32', 'x64'), { recursive: true });
    writeFileSync(join(linux, ADDON_DIGEST_FILE), `${'A'.repeat(64)}\n`);
    writeFileSync(join(mac, ADDON_DIGEST_FILE), 'not a digest\n');
    const digests = readAddonDigests(directory);
    expect(digests).toEqual({ 'linux-x64': 'a'.repeat(64) });
    expect(addonDigestFor(digests, 'linux', 'x64')).toBe('a'.repeat(64));
    expect(addonDigestFor(digests, 'darwin', 'arm64')).toBeNull();
    expect(readAddonDigests(join(directory, 'elsewhere'))).toEqual({});
  });

  test('outside a build (tests, tsx) no digest is built in', () => {
    expect(BUILT_IN_ADDON_DIGESTS).toEqual({});
  });
});

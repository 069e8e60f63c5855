import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  addonBuildCommands,
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

test('tries the published prebuild for Electron before compiling against the Electron headers', () => {
  const commands = addonBuildCommands({
    electronVersion: '45.4.1',
    platform: 'darwin',
    arch: 'arm64',
    prebuildInstallScript: '/p/bin.js',
    nodeGypScript: '/g/node-gyp.js',
  });
  expect(commands.map((command) => command.args)).toEqual([
    ['/p/bin.js', '--runtime=electron', '--target=45.4.1', '--arch=arm64', '--platform=darwin'],
    [
      '/g/node-gyp.js',
      'rebuild',
      '--release',
      '--target=45.4.1',
      '--arch=arm64',
      '--dist-url=https://electronjs.org/headers',
    ],
  ]);
});

// electron-builder.yml cannot be exercised here (packaging downloads Electron),
// so it is checked: by electron-builder's own loader and JSON schema, and
// against what main expects of the packaged app.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { WindowsSignToolManager } from 'app-builder-lib/out/codeSign/windowsSignToolManager';
import { beforeAll, describe, expect, test } from 'vitest';
import { APP_ID } from './app-id';
import { electronAddonDirectory, PACKAGED_ADDON_DIRECTORY, SQLITE_ADDON_FILE } from './native/sqlite-addon';

type Configuration = Awaited<ReturnType<typeof getConfig>>;
const projectRoot = resolve(import.meta.dirname, '..');
const quietLogger = { isEnabled: false, add() {} } as unknown as Parameters<typeof validateConfiguration>[1];

let config: Configuration;
beforeAll(async () => {
  config = await getConfig(projectRoot, null, null);
});

const targetNames = (target: unknown): string[] =>
  (Array.isArray(target) ? target : [target]).map((entry) =>
    typeof entry === 'string' ? entry : String((entry as { target: string }).target),
  );

test("passes electron-builder's own validation (its JSON schema)", async () => {
  await expect(validateConfiguration(config, quietLogger)).resolves.toBeUndefined();
});

test('the validation refuses a misspelt fuse, so it is really checking', async () => {
  const misspelt = {
    ...config,
    electronFuses: { ...config.electronFuses, runAsNod: false },
  } as Configuration;
  await expect(validateConfiguration(misspelt, quietLogger)).rejects.toThrow(/electronFuses/);
});

test('identifies the app as main does', () => {
  expect(config.appId).toBe(APP_ID);
  expect(config.productName).toBe('svc-desktop');
});

test('sets the Electron fuses: no run-as-node, no NODE_OPTIONS, no inspector, asar only and checked, cookies encrypted', () => {
  expect(config.electronFuses).toMatchObject({
    runAsNode: false,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    onlyLoadAppFromAsar: true,
    enableEmbeddedAsarIntegrityValidation: true,
    enableCookieEncryption: true,
    grantFileProtocolExtraPrivileges: false,
  });
  expect(config.asar ?? true).toBe(true);
});

describe('macOS', () => {
  test('builds a dmg and a zip with the hardened runtime and our entitlements', () => {
    expect(targetNames(config.mac?.target).sort()).toEqual(['dmg', 'zip']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.mac?.entitlements).toBe('build/entitlements.mac.plist');
    expect(config.mac?.entitlementsInherit).toBe('build/entitlements.mac.plist');
  });

  test('entitles the app to JIT only', () => {
    const plist = readFileSync(join(projectRoot, 'build/entitlements.mac.plist'), 'utf8');
    expect(plist).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<!DOCTYPE plist/);
    const keys = [...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((match) => match[1]);
    expect(keys).toEqual(['com.apple.security.cs.allow-jit']);
  });
});

test('builds an NSIS installer for Windows, an AppImage and a deb for Linux', () => {
  expect(targetNames(config.win?.target)).toEqual(['nsis']);
  expect(targetNames(config.linux?.target).sort()).toEqual(['AppImage', 'deb']);
  expect(config.linux?.maintainer).toMatch(/<.+@.+>/);
});

test('installs a Windows update only if its installer is signed by our publisher, the name electron-builder gives electron-updater', async () => {
  // Left unset (and no certificate at build time), electron-updater skips the check.
  expect(config.win?.verifyUpdateCodeSignature ?? true).toBe(true);
  // What electron-builder writes into app-update.yml as publisherName, computed its own way.
  const signing = new WindowsSignToolManager({
    platformSpecificBuildOptions: config.win,
  } as unknown as ConstructorParameters<typeof WindowsSignToolManager>[0]);
  expect(await signing.computedPublisherName.value).toEqual(['svc-desktop contributors']);
});

describe('better-sqlite3 in the package', () => {
  test('is unpacked from the asar and never rebuilt in this checkout', () => {
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
    expect(config.npmRebuild).toBe(false);
  });

  test('ships the Electron build where main looks for it, from where native:electron puts it', () => {
    const expectedFrom = electronAddonDirectory('', '${platform}', '${arch}').replace(/^[\\/]/, '');
    expect(config.extraResources).toEqual([
      {
        from: `${expectedFrom.split('\\').join('/')}/${SQLITE_ADDON_FILE}`,
        to: `${PACKAGED_ADDON_DIRECTORY}/${SQLITE_ADDON_FILE}`,
      },
    ]);
  });

  test('leaves out its C sources and its Node build', () => {
    // electron-builder's loader turns the list into file sets with filters.
    const patterns = (Array.isArray(config.files) ? config.files : [config.files]).flatMap((entry) =>
      typeof entry === 'string' ? [entry] : ((entry as { filter?: string[] } | null)?.filter ?? []),
    );
    expect(patterns).toContain('!node_modules/better-sqlite3/{src,deps,build}/**');
    expect(patterns).toContain('out/**');
  });
});

/** Width and height of a PNG, after checking its signature, chunk checksums and that its pixels inflate to the right size. */
function readPng(file: string): { width: number; height: number } {
  const png = readFileSync(file);
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  let offset = 8;
  let width = 0;
  let height = 0;
  const data: Buffer[] = [];
  for (;;) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect([body[8], body[9]]).toEqual([8, 6]);
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
    if (type === 'IEND') break;
  }
  expect(inflateSync(Buffer.concat(data)).length).toBe(height * (width * 4 + 1));
  return { width, height };
}

test('has icons: a 1024 px icon.png for macOS and Windows, and a size set for Linux', () => {
  expect(config.mac?.icon).toBe('build/icon.png');
  expect(config.win?.icon).toBe('build/icon.png');
  expect(config.linux?.icon).toBe('build/icons');
  expect(readPng(join(projectRoot, 'build/icon.png'))).toEqual({ width: 1024, height: 1024 });
  for (const size of [32, 64, 128, 256, 512, 1024]) {
    expect(readPng(join(projectRoot, `build/icons/${size}x${size}.png`))).toEqual({
      width: size,
      height: size,
    });
  }
});

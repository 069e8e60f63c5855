// better-sqlite3 is a native addon, built per runtime. node_modules keeps the
// build for Node (tests, benchmarks, the CLI); the app loads a second build,
// made for this checkout's Electron, through better-sqlite3's `nativeBinding`
// option. Neither ever overwrites the other, so `npm test` and `npm start` can
// run in either order. This module says where that Electron build lives, and
// checks it before it loads: it sits outside the asar, which integrity checks
// do not cover, so its SHA-256 is built into the main bundle (inside the asar).
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const SQLITE_ADDON_FILE = 'better_sqlite3.node';

/** Beside the addon in the cache: its SHA-256 in hex, written by `npm run native:electron`. */
export const ADDON_DIGEST_FILE = 'better_sqlite3.node.sha256';

/** Under the packaged app's resources/ (electron-builder `extraResources`, outside the asar). */
export const PACKAGED_ADDON_DIRECTORY = 'native';

/** Where `npm run native:electron` puts the Electron build in a checkout. */
export function electronAddonDirectory(projectRoot: string, platform: string, arch: string): string {
  return join(electronAddonRoot(projectRoot), `${platform}-${arch}`);
}

/** The folder holding one Electron build per `<platform>-<arch>`. */
function electronAddonRoot(projectRoot: string): string {
  return join(projectRoot, 'node_modules', '.cache', 'svc-desktop', 'electron-addon');
}

export interface AddonRuntime {
  readonly isPackaged: boolean;
  /** `app.getAppPath()`: the project root when started from a checkout. */
  readonly appPath: string;
  /** `process.resourcesPath`. */
  readonly resourcesPath: string;
  readonly platform: string;
  readonly arch: string;
}

/** The `nativeBinding` to open the mirror with in the Electron main process. */
export function sqliteNativeBinding(runtime: AddonRuntime): string {
  return runtime.isPackaged
    ? join(runtime.resourcesPath, PACKAGED_ADDON_DIRECTORY, SQLITE_ADDON_FILE)
    : join(electronAddonDirectory(runtime.appPath, runtime.platform, runtime.arch), SQLITE_ADDON_FILE);
}

/** What an Electron build was made for; stored beside it so a version change rebuilds it. */
export interface AddonStamp {
  readonly electron: string;
  readonly betterSqlite3: string;
  readonly platform: string;
  readonly arch: string;
}

export function isAddonStampCurrent(stamp: unknown, wanted: AddonStamp): boolean {
  if (typeof stamp !== 'object' || stamp === null) return false;
  const found = stamp as Partial<Record<keyof AddonStamp, unknown>>;
  return (Object.keys(wanted) as (keyof AddonStamp)[]).every((key) => found[key] === wanted[key]);
}

/**
 * Whether an addon is the Electron build, judged by loading it into Node:
 * Node refuses a build for another ABI, naming that ABI. Loading fine means it
 * was built for Node; naming another ABI means it was built for something else.
 */
export function judgeElectronAddon(
  load: () => void,
  electronAbi: string,
): { ok: true } | { ok: false; reason: string } {
  try {
    load();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const abi = /NODE_MODULE_VERSION (\d+)\b/.exec(message)?.[1];
    if (abi === undefined || abi === electronAbi) return { ok: true };
    return { ok: false, reason: `it is built for NODE_MODULE_VERSION ${abi}, Electron needs ${electronAbi}` };
  }
  return { ok: false, reason: 'it loads in Node, so it was built for Node, not Electron' };
}

/**
 * How to compile the Electron build from better-sqlite3's sources: the way
 * when no pinned prebuild is taken (addon-prebuild.ts).
 */
export function addonCompileCommand(options: {
  electronVersion: string;
  arch: string;
  nodeGypScript: string;
}): { label: string; args: string[] } {
  return {
    label: 'compile against the Electron headers',
    args: [
      options.nodeGypScript,
      'rebuild',
      '--release',
      `--target=${options.electronVersion}`,
      `--arch=${options.arch}`,
      '--dist-url=https://electronjs.org/headers',
    ],
  };
}

/** SHA-256 of a file, lower-case hex. */
export function sha256OfFile(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * Every `<platform>-<arch>` build's SHA-256 found in a checkout's cache, read at
 * build time and built into the main bundle (electron.vite.config.ts).
 */
export function readAddonDigests(projectRoot: string): Record<string, string> {
  const root = electronAddonRoot(projectRoot);
  const digests: Record<string, string> = {};
  if (!existsSync(root)) return digests;
  for (const target of readdirSync(root)) {
    const file = join(root, target, ADDON_DIGEST_FILE);
    if (!existsSync(file)) continue;
    const digest = readFileSync(file, 'utf8').trim().toLowerCase();
    if (/^[0-9a-f]{64}$/.test(digest)) digests[target] = digest;
  }
  return digests;
}

/** The digest built in for this platform and arch, if any. */
export function addonDigestFor(
  digests: Readonly<Record<string, string>>,
  platform: string,
  arch: string,
): string | null {
  return digests[`${platform}-${arch}`] ?? null;
}

/**
 * Whether the addon may be loaded. A packaged app checks it: its SHA-256 must
 * be the one built in, and a build without one refuses (it could not tell a
 * replaced file). A checkout has no asar to protect and rebuilds the addon on
 * its own schedule (`npm run native:electron`), so it loads it unchecked.
 */
export function checkAddonDigest(options: {
  file: string;
  expected: string | null;
  isPackaged: boolean;
}): { ok: true } | { ok: false; reason: string } {
  const { file, expected, isPackaged } = options;
  if (!isPackaged) return { ok: true };
  if (expected === null) {
    return {
      ok: false,
      reason: `this build of the app carries no SHA-256 for ${file}, so it cannot tell whether the file was replaced. Reinstall the app.`,
    };
  }
  let actual: string;
  try {
    actual = sha256OfFile(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'read failed';
    return { ok: false, reason: `${file} cannot be read (${code}).` };
  }
  if (actual === expected.toLowerCase()) return { ok: true };
  return {
    ok: false,
    reason:
      `${file} is not the SQLite addon this app was built with (SHA-256 ${actual}, expected ${expected}): ` +
      'it was changed or replaced after installation. Reinstall the app.',
  };
}

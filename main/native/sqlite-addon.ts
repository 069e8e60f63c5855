// better-sqlite3 is a native addon, built per runtime. node_modules keeps the
// build for Node (tests, benchmarks, the CLI); the app loads a second build,
// made for this checkout's Electron, through better-sqlite3's `nativeBinding`
// option. Neither ever overwrites the other, so `npm test` and `npm start` can
// run in either order. This module says where that Electron build lives.
import { join } from 'node:path';

export const SQLITE_ADDON_FILE = 'better_sqlite3.node';

/** Under the packaged app's resources/ (electron-builder `extraResources`, outside the asar). */
export const PACKAGED_ADDON_DIRECTORY = 'native';

/** Where `npm run native:electron` puts the Electron build in a checkout. */
export function electronAddonDirectory(projectRoot: string, platform: string, arch: string): string {
  return join(projectRoot, 'node_modules', '.cache', 'svc-desktop', 'electron-addon', `${platform}-${arch}`);
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

/** The two ways to get the Electron build, in order: a published prebuild, then a compile. */
export function addonBuildCommands(options: {
  electronVersion: string;
  platform: string;
  arch: string;
  prebuildInstallScript: string;
  nodeGypScript: string;
}): { label: string; args: string[] }[] {
  const { electronVersion, platform, arch } = options;
  return [
    {
      label: 'download the published prebuild',
      args: [
        options.prebuildInstallScript,
        '--runtime=electron',
        `--target=${electronVersion}`,
        `--arch=${arch}`,
        `--platform=${platform}`,
      ],
    },
    {
      label: 'compile against the Electron headers',
      args: [
        options.nodeGypScript,
        'rebuild',
        '--release',
        `--target=${electronVersion}`,
        `--arch=${arch}`,
        '--dist-url=https://electronjs.org/headers',
      ],
    },
  ];
}

// `npm run native:electron [-- --arch arm64]` (run before `npm start`, `npm run
// dev` and `npm run dist`): makes better-sqlite3's Electron build in
// node_modules/.cache, once per Electron and better-sqlite3 version, from the
// published prebuild when its SHA-256 is pinned in the repository
// (addon-prebuild.ts), else by compiling a copy of its sources, leaving the
// Node build in node_modules untouched. A build tool run with tsx, not part of the app.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { parseArgs } from 'node:util';
import {
  fetchPinnedPrebuild,
  PREBUILD_PINS_FILE,
  prebuildHost,
  readPrebuildPins,
  runningLibc,
} from './addon-prebuild';
import {
  ADDON_DIGEST_FILE,
  addonCompileCommand,
  electronAddonDirectory,
  isAddonStampCurrent,
  judgeElectronAddon,
  sha256OfFile,
  SQLITE_ADDON_FILE,
  type AddonStamp,
} from './sqlite-addon';

const projectRoot = resolve(import.meta.dirname, '../..');
const say = (line: string) => process.stdout.write(`native:electron: ${line}\n`);

function packageVersion(name: string): string {
  const manifest = JSON.parse(
    readFileSync(join(projectRoot, 'node_modules', name, 'package.json'), 'utf8'),
  ) as {
    version: string;
  };
  return manifest.version;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { arch: { type: 'string', default: process.arch } } });
  const wanted: AddonStamp = {
    electron: packageVersion('electron'),
    betterSqlite3: packageVersion('better-sqlite3'),
    platform: process.platform,
    arch: values.arch,
  };
  const directory = electronAddonDirectory(projectRoot, wanted.platform, wanted.arch);
  const addon = join(directory, SQLITE_ADDON_FILE);
  const stampFile = join(directory, 'stamp.json');
  const digestFile = join(directory, ADDON_DIGEST_FILE);
  if (existsSync(addon) && isAddonStampCurrent(readJson(stampFile), wanted)) {
    // The SHA-256 the main bundle builds in (electron.vite.config.ts), also for a cache made before it was kept.
    writeFileSync(digestFile, `${sha256OfFile(addon)}\n`);
    say(`up to date (${relative(projectRoot, addon)}, Electron ${wanted.electron})`);
    return 0;
  }

  say(
    `building better-sqlite3 ${wanted.betterSqlite3} for Electron ${wanted.electron} (${wanted.platform}-${wanted.arch})`,
  );
  const sources = join(projectRoot, 'node_modules', 'better-sqlite3');
  const tree = join(directory, 'tree', 'better-sqlite3');
  rmSync(join(directory, 'tree'), { recursive: true, force: true });
  // A copy, so the Node build in node_modules/better-sqlite3/build is never touched.
  cpSync(sources, tree, {
    recursive: true,
    filter: (path) => !path.startsWith(join(sources, 'build') + sep) && path !== join(sources, 'build'),
  });

  const built = join(tree, 'build', 'Release', SQLITE_ADDON_FILE);
  const electronAbi = readAbi();
  if (electronAbi !== undefined) {
    const prebuild = await fetchPinnedPrebuild({
      host: prebuildHost(process.env),
      target: {
        betterSqlite3: wanted.betterSqlite3,
        electronAbi,
        platform: wanted.platform,
        arch: wanted.arch,
        libc: runningLibc(),
      },
      pins: readPrebuildPins(join(projectRoot, PREBUILD_PINS_FILE)),
      destination: built,
    });
    // A prebuild refused (not pinned, or not what was pinned) is compiled instead, not a failure: the
    // sources are the ones npm installed and checked against package-lock.json's integrity, so the
    // compile owes nothing to the refused download, and whoever runs `npm start` wants the app.
    say(
      prebuild.ok ? `prebuild ${prebuild.sha256} matches its pin` : `prebuild not used: ${prebuild.reason}`,
    );
  }
  if (!existsSync(built)) {
    const fromProject = createRequire(join(projectRoot, 'package.json'));
    const command = addonCompileCommand({
      electronVersion: wanted.electron,
      arch: wanted.arch,
      nodeGypScript: process.env['npm_config_node_gyp'] ?? fromProject.resolve('node-gyp/bin/node-gyp.js'),
    });
    // npm's `nodedir` (set on some machines for offline Node builds) would make node-gyp use Node's headers.
    const env = { ...process.env };
    for (const key of Object.keys(env)) {
      if (/^npm_config_(nodedir|runtime|target|disturl|arch)$/i.test(key)) delete env[key];
    }
    say(command.label);
    spawnSync(process.execPath, command.args, { cwd: tree, env, stdio: 'inherit' });
  }
  if (!existsSync(built)) {
    rmSync(join(directory, 'tree'), { recursive: true, force: true });
    process.stderr.write(
      'native:electron: could not get better-sqlite3 for Electron. A prebuild is used only when its SHA-256\n' +
        `is pinned in ${PREBUILD_PINS_FILE}; the compile needs a C++ toolchain and the Electron headers from\n` +
        'electronjs.org. See the output above.\n',
    );
    return 1;
  }
  if (wanted.arch === process.arch && electronAbi !== undefined) {
    const verdict = judgeElectronAddon(() => process.dlopen({ exports: {} }, built), electronAbi);
    if (!verdict.ok) {
      process.stderr.write(`native:electron: the addon built is not for Electron: ${verdict.reason}\n`);
      return 1;
    }
  }
  mkdirSync(directory, { recursive: true });
  copyFileSync(built, addon);
  writeFileSync(digestFile, `${sha256OfFile(addon)}\n`);
  writeFileSync(stampFile, `${JSON.stringify(wanted, null, 2)}\n`);
  rmSync(join(directory, 'tree'), { recursive: true, force: true });
  say(`ready: ${relative(projectRoot, addon)}`);
  return 0;
}

/** Electron's NODE_MODULE_VERSION, as the electron package records it. */
function readAbi(): string | undefined {
  const file = join(projectRoot, 'node_modules', 'electron', 'abi_version');
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : undefined;
}

process.exitCode = await main();

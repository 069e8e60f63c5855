// `npm run native:pin-prebuilds [-- --target linux-x64 …]`: records in
// build/better-sqlite3-prebuilds.json the SHA-256 of better-sqlite3's Electron
// prebuild for this checkout's better-sqlite3 and Electron, per platform/arch,
// so that `npm run native:electron` takes those downloads and refuses any
// other. Run by a release owner with network whenever either version changes;
// commit the file. A release tool run with tsx, not part of the app.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { PREBUILD_PINS_FILE, prebuildHost, recordPrebuildPins, type PrebuildTarget } from './addon-prebuild';

/** What the releases ship (electron-builder.yml), and the arm64 builds people start from a checkout. */
export const DEFAULT_PIN_TARGETS = [
  'linux-x64',
  'linux-arm64',
  'darwin-x64',
  'darwin-arm64',
  'win32-x64',
  'win32-arm64',
] as const;

/** `linux-x64`, `linuxmusl-arm64`, … as a target of these versions. */
export function pinTarget(text: string, betterSqlite3: string, electronAbi: string): PrebuildTarget {
  const match = /^(linux|linuxmusl|darwin|win32)-(x64|arm64|ia32|arm)$/u.exec(text);
  if (match === null) throw new Error(`--target ${text}: expected <platform>-<arch>, e.g. linux-x64`);
  const [, platform = '', arch = ''] = match;
  return platform === 'linuxmusl'
    ? { betterSqlite3, electronAbi, platform: 'linux', libc: 'musl', arch }
    : { betterSqlite3, electronAbi, platform, libc: '', arch };
}

export async function runPinPrebuilds(
  argv: readonly string[],
  io: { projectRoot: string; env: NodeJS.ProcessEnv; say: (line: string) => void },
): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { target: { type: 'string', multiple: true } },
  });
  const read = (path: string) => readFileSync(join(io.projectRoot, 'node_modules', path), 'utf8');
  const betterSqlite3 = (JSON.parse(read('better-sqlite3/package.json')) as { version: string }).version;
  const electronAbi = read('electron/abi_version').trim();
  const targets = (values.target ?? [...DEFAULT_PIN_TARGETS]).map((text) =>
    pinTarget(text, betterSqlite3, electronAbi),
  );
  const pinsFile = join(io.projectRoot, PREBUILD_PINS_FILE);
  await recordPrebuildPins({ host: prebuildHost(io.env), targets, pinsFile, say: io.say });
  io.say(`recorded in ${PREBUILD_PINS_FILE}: commit it.`);
  return 0;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  runPinPrebuilds(process.argv.slice(2), {
    projectRoot: resolve(import.meta.dirname, '../..'),
    env: process.env,
    say: (line) => process.stdout.write(`native:pin-prebuilds: ${line}\n`),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(
        `native:pin-prebuilds: ${error instanceof Error ? error.message : String(error)}\n`,
      );
      process.exitCode = 1;
    },
  );
}

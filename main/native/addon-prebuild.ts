// The published better-sqlite3 prebuild for Electron, taken only when its
// SHA-256 is pinned in the repository (build/better-sqlite3-prebuilds.json).
// The tarball is read into memory and hashed before anything of it is
// unpacked or written: one whose hash is not pinned, or differs, never reaches
// the disk, so it can never be loaded or shipped. Pins are recorded per
// better-sqlite3 version × Electron ABI × platform/arch (the tarball's own
// name says all four) by a release owner with `npm run native:pin-prebuilds`.
// Build tools run with tsx, not part of the app.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { SQLITE_ADDON_FILE } from './sqlite-addon';

/** The pin file, from the project root: committed, reviewed like code. */
export const PREBUILD_PINS_FILE = join('build', 'better-sqlite3-prebuilds.json');

/** Where better-sqlite3 publishes its prebuilds (prebuild-install's default for it). */
export const DEFAULT_PREBUILD_HOST = 'https://github.com/WiseLibs/better-sqlite3/releases/download';

/** A prebuild is 2-4 MB: anything past this is not one, and is not read further. */
const MAX_PREBUILD_BYTES = 64 * 1024 * 1024;

/** The entry of the tarball that is the addon (as better-sqlite3's prebuilds are packed). */
const ADDON_ENTRY = `build/Release/${SQLITE_ADDON_FILE}`;

export interface PrebuildTarget {
  readonly betterSqlite3: string;
  /** Electron's NODE_MODULE_VERSION (node_modules/electron/abi_version). */
  readonly electronAbi: string;
  readonly platform: string;
  readonly arch: string;
  /** 'musl' on a musl Linux (Alpine), else ''. */
  readonly libc: '' | 'musl';
}

/** The tarball's name, as prebuild-install asks for it: also the pin's key. */
export function prebuildAssetName(target: PrebuildTarget): string {
  const { betterSqlite3, electronAbi, platform, libc, arch } = target;
  return `better-sqlite3-v${betterSqlite3}-electron-v${electronAbi}-${platform}${libc}-${arch}.tar.gz`;
}

/**
 * The host to download from: prebuild-install's mirror setting
 * (npm_config_better_sqlite3_binary_host), else GitHub. A mirror needs no
 * trust of its own: what it serves must match the pin.
 */
export function prebuildHost(env: NodeJS.ProcessEnv): string {
  const host =
    env['npm_config_better_sqlite3_binary_host'] ?? env['npm_config_better_sqlite3_binary_host_mirror'];
  return (host === undefined || host === '' ? DEFAULT_PREBUILD_HOST : host).replace(/\/+$/u, '');
}

export function prebuildUrl(host: string, target: PrebuildTarget): string {
  return `${host}/v${target.betterSqlite3}/${prebuildAssetName(target)}`;
}

export type PrebuildPins = Record<string, string>;

interface PinFile {
  about: string;
  pins: PrebuildPins;
}

const PIN_FILE_ABOUT =
  "SHA-256 of each better-sqlite3 prebuild for Electron that `npm run native:electron` may use, by the tarball's name " +
  '(better-sqlite3 version, Electron ABI, platform, arch). A download whose hash is not here is refused and the addon ' +
  'is compiled from source. Recorded by `npm run native:pin-prebuilds` when better-sqlite3 or Electron changes; ' +
  'review a changed hash of an existing name as you would changed code.';

const SHA256_HEX = /^[0-9a-f]{64}$/u;

/** The pins in `file`; a missing file is none, a malformed one an error (it must not pass as "no pins"). */
export function readPrebuildPins(file: string): PrebuildPins {
  if (!existsSync(file)) return {};
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<PinFile> | null;
  const pins = parsed?.pins;
  if (typeof pins !== 'object' || pins === null || Array.isArray(pins)) {
    throw new Error(`${file}: expected {"about": …, "pins": {"<tarball name>": "<sha256>"}}`);
  }
  const out: PrebuildPins = {};
  for (const [name, digest] of Object.entries(pins)) {
    if (typeof digest !== 'string' || !SHA256_HEX.test(digest)) {
      throw new Error(`${file}: the pin of ${name} is not a lower-case hex SHA-256`);
    }
    out[name] = digest;
  }
  return out;
}

/** Writes `pins` over those in `file` (others kept, names sorted so a diff shows only what changed). */
export function writePrebuildPins(file: string, pins: PrebuildPins): void {
  const all = { ...readPrebuildPins(file), ...pins };
  const sorted = Object.fromEntries(
    Object.keys(all)
      .sort()
      .map((name) => [name, all[name]]),
  );
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ about: PIN_FILE_ABOUT, pins: sorted }, null, 2)}\n`);
}

/** The whole answer at `url`, refused past MAX_PREBUILD_BYTES. Redirects followed (GitHub sends one). */
export async function downloadPrebuild(url: string, signal?: AbortSignal): Promise<Buffer> {
  const answer = await fetch(url, { redirect: 'follow', ...(signal ? { signal } : {}) });
  if (!answer.ok || answer.body === null) throw new Error(`${url} answered ${answer.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = (answer.body as ReadableStream<Uint8Array>).getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk: Uint8Array = read.value;
    size += chunk.byteLength;
    if (size > MAX_PREBUILD_BYTES) {
      await reader.cancel();
      throw new Error(`${url} is over ${MAX_PREBUILD_BYTES} bytes: not a prebuild`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * The addon inside a prebuild tarball (gzip'd tar), or null when it holds
 * none. Read only after its hash matched a pin: a plain reader of tar headers
 * (name, size, type) is enough, and no path from the archive is ever written.
 */
export function addonFromTarball(tarball: Buffer): Buffer | null {
  const tar = gunzipSync(tarball, { maxOutputLength: MAX_PREBUILD_BYTES });
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) return null;
    const field = (from: number, length: number) =>
      header
        .subarray(from, from + length)
        .toString('utf8')
        .replace(/\0.*$/su, '');
    const prefix = field(345, 155);
    const name = (prefix === '' ? '' : `${prefix}/`) + field(0, 100);
    const size = Number.parseInt(field(124, 12).trim() || '0', 8);
    const type = field(156, 1);
    const body = at + 512;
    if (!Number.isSafeInteger(size) || size < 0 || body + size > tar.length) return null;
    if ((type === '0' || type === '') && name.replace(/^\.\//u, '') === ADDON_ENTRY) {
      return tar.subarray(body, body + size);
    }
    at = body + Math.ceil(size / 512) * 512;
  }
  return null;
}

export type PrebuildOutcome =
  { ok: true; file: string; sha256: string } | { ok: false; reason: string; requested: boolean };

/**
 * Downloads the prebuild for `target` and writes its addon to `destination`,
 * only if the tarball's SHA-256 is the one pinned for its name. Not pinned:
 * nothing is asked. Differs, or holds no addon: nothing is written.
 */
export async function fetchPinnedPrebuild(options: {
  host: string;
  target: PrebuildTarget;
  pins: Readonly<PrebuildPins>;
  destination: string;
  signal?: AbortSignal;
}): Promise<PrebuildOutcome> {
  const { host, target, pins, destination } = options;
  const name = prebuildAssetName(target);
  const pinned = pins[name];
  if (pinned === undefined) {
    return {
      ok: false,
      requested: false,
      reason:
        `no SHA-256 is pinned for ${name} in ${PREBUILD_PINS_FILE}, so it is not downloaded ` +
        '(a release owner records it with `npm run native:pin-prebuilds`)',
    };
  }
  const url = prebuildUrl(host, target);
  let tarball: Buffer;
  try {
    tarball = await downloadPrebuild(url, options.signal);
  } catch (error) {
    return { ok: false, requested: true, reason: error instanceof Error ? error.message : String(error) };
  }
  const actual = sha256Of(tarball);
  if (actual !== pinned) {
    return {
      ok: false,
      requested: true,
      reason:
        `${url} is not the prebuild pinned in ${PREBUILD_PINS_FILE} (SHA-256 ${actual}, pinned ${pinned}); ` +
        'it was refused and not written. If the project republished it, check why before recording the new hash.',
    };
  }
  const addon = addonFromTarball(tarball);
  if (addon === null) {
    return { ok: false, requested: true, reason: `${url} holds no ${ADDON_ENTRY}` };
  }
  mkdirSync(dirname(destination), { recursive: true });
  writeFileSync(destination, addon);
  return { ok: true, file: destination, sha256: actual };
}

/** The prebuild's tarball hash for each target, after checking it holds an addon: what a pin records. */
export async function recordPrebuildPins(options: {
  host: string;
  targets: readonly PrebuildTarget[];
  pinsFile: string;
  say: (line: string) => void;
}): Promise<PrebuildPins> {
  const recorded: PrebuildPins = {};
  for (const target of options.targets) {
    const url = prebuildUrl(options.host, target);
    const tarball = await downloadPrebuild(url);
    if (addonFromTarball(tarball) === null) throw new Error(`${url} holds no ${ADDON_ENTRY}`);
    const name = prebuildAssetName(target);
    recorded[name] = sha256Of(tarball);
    options.say(`${name} ${recorded[name]}`);
  }
  writePrebuildPins(options.pinsFile, recorded);
  return recorded;
}

/** Whether this Node runs on musl (its report names no glibc): prebuilds for it are `linuxmusl`. */
export function runningLibc(): '' | 'musl' {
  if (process.platform !== 'linux') return '';
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime === undefined ? 'musl' : '';
}

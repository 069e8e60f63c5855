// A small JSON file the app keeps for itself (settings, the account list, the
// secrets file, a headless login): read through a schema, written atomically
// and durably (a temporary file, flushed, renamed over the old one, the folder
// flushed), readable by its owner alone. A crash leaves the old file or the new
// one, never half of one.
import {
  chmodSync,
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
  readFileSync,
} from 'node:fs';
import { chmod, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { OWNER_DIRECTORY_MODE, tightenOwnerOnlyFile } from './owner-only-files';

/** What reading found: no file yet, a file that cannot be used (and why), or its value. */
export type JsonFileRead<T> =
  | { state: 'missing' }
  | {
      state: 'unreadable';
      /** `EACCES`, … for a file that could not be read; null when it read but did not parse or fit. */
      code: string | null;
      /** In a few words: `not JSON`, `unexpected accounts.0.id`, the I/O error's code. */
      reason: string;
    }
  | { state: 'read'; value: T };

export interface JsonFileWriteOptions {
  /** Default 0o600: what the app keeps is the person's alone. */
  mode?: number;
  /** Indented, with a final newline (files a person may open); default true. */
  pretty?: boolean;
}

function errorCode(error: unknown): string | null {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : null;
}

function parsed<T>(text: string, schema: z.ZodType<T>): JsonFileRead<T> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { state: 'unreadable', code: null, reason: 'not JSON' };
  }
  const result = schema.safeParse(json);
  if (result.success) return { state: 'read', value: result.data };
  const paths = result.error.issues.map((issue) => issue.path.join('.') || '(file)');
  return {
    state: 'unreadable',
    code: null,
    reason: `unexpected ${[...new Set(paths)].slice(0, 3).join(', ')}`,
  };
}

function failedRead(error: unknown): JsonFileRead<never> {
  const code = errorCode(error);
  return code === 'ENOENT'
    ? { state: 'missing' }
    : { state: 'unreadable', code, reason: code ?? 'read failed' };
}

export async function readJsonFile<T>(file: string, schema: z.ZodType<T>): Promise<JsonFileRead<T>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
    // One written by an older version, or copied in, may be readable by others: not after this.
    tightenOwnerOnlyFile(file);
  } catch (error) {
    return failedRead(error);
  }
  return parsed(text, schema);
}

/** For what must be known before the first window (the app's settings). */
export function readJsonFileSync<T>(file: string, schema: z.ZodType<T>): JsonFileRead<T> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
    tightenOwnerOnlyFile(file);
  } catch (error) {
    return failedRead(error);
  }
  return parsed(text, schema);
}

function textOf(value: unknown, options: JsonFileWriteOptions): string {
  return options.pretty === false ? JSON.stringify(value) : `${JSON.stringify(value, null, 2)}\n`;
}

/** A temporary name of this process: two processes writing the same file never share one. */
function temporaryOf(file: string): string {
  return `${file}.${process.pid}.tmp`;
}

export async function writeJsonFile(
  file: string,
  value: unknown,
  options: JsonFileWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  // A folder made for it is the person's alone too (an existing one keeps its mode: it may be shared, like ~).
  await mkdir(dirname(file), { recursive: true, mode: OWNER_DIRECTORY_MODE });
  const temporary = temporaryOf(file);
  // The create mode applies only when the file is new: remove a leftover of a crashed write first.
  await rm(temporary, { force: true });
  const handle = await open(temporary, 'wx', mode);
  try {
    await handle.writeFile(textOf(value, options), 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  // The umask cannot widen the mode, but a file system may ignore the create mode: be explicit.
  await chmod(temporary, mode);
  await rename(temporary, file);
  await syncDirectory(dirname(file));
}

export function writeJsonFileSync(file: string, value: unknown, options: JsonFileWriteOptions = {}): void {
  const mode = options.mode ?? 0o600;
  mkdirSync(dirname(file), { recursive: true, mode: OWNER_DIRECTORY_MODE });
  const temporary = temporaryOf(file);
  rmSync(temporary, { force: true });
  const descriptor = openSync(temporary, 'wx', mode);
  try {
    writeSync(descriptor, textOf(value, options));
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  chmodSync(temporary, mode);
  renameSync(temporary, file);
}

/** Makes the rename itself durable; not possible on every platform (Windows), where it is skipped. */
async function syncDirectory(directory: string): Promise<void> {
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Directories cannot be opened or synced everywhere; the rename is still atomic.
  } finally {
    await handle?.close();
  }
}

// The person's data readable by them alone: files 0600, folders 0700, where
// POSIX modes apply. Windows has no such modes (its per-user profile ACLs
// guard the app data folder), so nothing is done there. Files that exist with
// wider modes (an older version, a copied folder) are tightened when opened.
import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

export const OWNER_FILE_MODE = 0o600;
export const OWNER_DIRECTORY_MODE = 0o700;

/** The files SQLite keeps beside a database: its write-ahead log, shared memory and rollback journal. */
export const SQLITE_COMPANION_SUFFIXES = ['-wal', '-shm', '-journal'] as const;

function modesApply(): boolean {
  return process.platform !== 'win32';
}

/** Removes group and other access from `path` if it exists and has any; false when there is nothing there. */
function tighten(path: string, mode: number): boolean {
  let current: number;
  try {
    current = statSync(path).mode & 0o777;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  if ((current & 0o077) === 0) return true;
  try {
    chmodSync(path, mode);
  } catch (error) {
    // Someone else's file (EPERM): not ours to change; opening it goes on as before.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') throw error;
  }
  return true;
}

/** A folder of the person's data: created 0700 (with missing parents, which get the same), or tightened to it. */
export function ensureOwnerOnlyDirectory(path: string): void {
  mkdirSync(path, { recursive: true, mode: OWNER_DIRECTORY_MODE });
  if (modesApply()) tighten(path, OWNER_DIRECTORY_MODE);
}

/** A file that exists already, tightened to 0600; nothing when it is missing. */
export function tightenOwnerOnlyFile(path: string): void {
  if (modesApply()) tighten(path, OWNER_FILE_MODE);
}

/**
 * Before a SQLite database is opened: created empty with mode 0600 when
 * missing (SQLite gives its -wal, -shm and -journal files the database's
 * mode), and the database and its companions tightened when they exist.
 * `create: false` (read-only opens) never creates it.
 */
export function prepareOwnerOnlyDatabase(file: string, options: { create?: boolean } = {}): void {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return;
  if (!modesApply()) return;
  if (!tighten(file, OWNER_FILE_MODE) && options.create !== false) {
    try {
      // 'a': never truncates one created meanwhile; the mode applies only to a new file.
      closeSync(openSync(file, 'a', OWNER_FILE_MODE));
    } catch {
      // A missing or read-only folder: SQLite's own open fails next and says why, as a storage error.
    }
  }
  tightenDatabaseFiles(file);
}

/** After switching to WAL: the database and the companions SQLite made or found, tightened. */
export function tightenDatabaseFiles(file: string): void {
  if (file === '' || file === ':memory:' || file.startsWith('file:')) return;
  if (!modesApply()) return;
  for (const suffix of ['', ...SQLITE_COMPANION_SUFFIXES]) tighten(`${file}${suffix}`, OWNER_FILE_MODE);
}

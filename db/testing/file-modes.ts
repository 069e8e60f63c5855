// For the tests of files only their owner may read (db/owner-only-files.ts):
// the usual umask while a describe's tests run, so that a file left to the
// default would be readable by everyone, and a file's permission bits.
import { statSync } from 'node:fs';
import { afterAll, beforeAll } from 'vitest';

/** Sets the usual umask (new files 0644) before the enclosing describe's tests and puts the old one back after. */
export function usualUmaskWhileTesting(): void {
  let umask: number;
  beforeAll(() => {
    umask = process.umask(0o022);
  });
  afterAll(() => {
    process.umask(umask);
  });
}

/** The permission bits of the file at `path` (0600, 0644, ...). */
export const modeOf = (path: string): number => statSync(path).mode & 0o777;

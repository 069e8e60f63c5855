// For a test file whose tests each want an empty folder of their own: made
// before each test, removed with everything in it after (also when it failed).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/**
 * Makes a fresh folder named from `prefix` before each test and hands it to
 * `use`; removes it after the test. Registered before a file's own afterEach,
 * it is removed after that has run (vitest runs after-hooks last-first), so
 * what the file closes there may still write into it.
 */
export function temporaryDirectoryPerTest(prefix: string, use: (directory: string) => void): void {
  let made: string | undefined;
  beforeEach(async () => {
    made = await mkdtemp(join(tmpdir(), prefix));
    use(made);
  });
  afterEach(async () => {
    if (made !== undefined) await rm(made, { recursive: true, force: true });
    made = undefined;
  });
}

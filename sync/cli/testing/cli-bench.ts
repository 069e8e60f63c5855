// For a headless-command test file whose tests each start afresh: an emulator
// and an empty folder with the mirror's path in it, started before each test
// and gone after it (also when it failed).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../emulator/start';

export interface CliBench {
  emulator: RunningEmulator;
  /** A fresh folder, removed after the test. */
  dir: string;
  /** `mirror.db` in `dir`, not made yet: the first command makes it. */
  db: string;
}

/** Before each test starts the emulator with `options` and makes a folder named from `prefix`, handing both to `use`. */
export function cliBenchPerTest(
  options: EmulatorOptions,
  prefix: string,
  use: (bench: CliBench) => void,
): void {
  let bench: CliBench | undefined;
  beforeEach(async () => {
    const emulator = await startEmulator(options);
    const dir = await mkdtemp(join(tmpdir(), prefix));
    bench = { emulator, dir, db: join(dir, 'mirror.db') };
    use(bench);
  });
  afterEach(async () => {
    await bench?.emulator.stop();
    if (bench) await rm(bench.dir, { recursive: true, force: true });
    bench = undefined;
  });
}

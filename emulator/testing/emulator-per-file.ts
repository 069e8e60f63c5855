// For an emulator test file whose tests share one emulator: started before the
// file's tests, stopped after them.
import { afterAll, beforeAll } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../start';

/** Starts the emulator with `options` before the file's tests (handing it to `use`) and stops it after. */
export function emulatorPerFile(options: EmulatorOptions, use: (emulator: RunningEmulator) => void): void {
  let started: RunningEmulator | undefined;
  beforeAll(async () => {
    started = await startEmulator(options);
    use(started);
  });
  afterAll(async () => {
    await started?.stop();
  });
}

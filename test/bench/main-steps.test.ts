// The ui benchmark's reading of main's steps: a step's CPU, its wait for a core
// and its sleep show apart.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { watchMainSteps } from './main-steps';

/** Holds main for `ms` of wall time, running. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Holds main for `ms` asleep (blocked, as in a slow write): no CPU, no wait for a core. */
function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const turn = () => new Promise((resolve) => setTimeout(resolve, 5));

/** Main's steps watched around one step that runs `hold`, a turn of the loop before and after it. */
async function stepsAround(hold: () => void) {
  const steps = watchMainSteps();
  await turn();
  hold();
  await turn();
  return steps.stop();
}

test.runIf(process.platform === 'linux')(
  "a step that runs is main's CPU; one that sleeps is neither CPU nor waiting",
  async () => {
    const ran = await stepsAround(() => spin(120));
    expect(ran.longest.ms).toBeGreaterThanOrEqual(120);
    // Whatever the machine's load, the CPU and the wait for a core make up the step it spun.
    expect((ran.longest.cpuMs ?? 0) + (ran.longest.waitingMs ?? 0)).toBeGreaterThanOrEqual(100);
    expect(ran.mostCpuMs).toBeGreaterThan(0);

    const slept = await stepsAround(() => sleep(120));
    expect(slept.longest.ms).toBeGreaterThanOrEqual(120);
    expect(slept.longest.cpuMs).toBeLessThan(30);
    expect(slept.longest.waitingMs).toBeLessThan(30);
  },
);

test.runIf(process.platform === 'linux')(
  'a step spun while more threads than cores spin beside it waited for a core part of its time',
  async () => {
    const spinners = Array.from(
      { length: availableParallelism() * 2 },
      () =>
        new Worker(
          `const { parentPort } = require('node:worker_threads');
           parentPort.postMessage('spinning');
           for (;;) {}`,
          { eval: true },
        ),
    );
    try {
      await Promise.all(spinners.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
      const contended = await stepsAround(() => spin(300));
      expect(contended.longest.ms).toBeGreaterThanOrEqual(300);
      // Three runnable threads a core: main runs about a third of the step, and waits the rest.
      expect(contended.longest.waitingMs).toBeGreaterThan(60);
      expect(contended.mostCpuMs).toBeLessThan(contended.longest.ms);
    } finally {
      await Promise.all(spinners.map((worker) => worker.terminate()));
    }
  },
);

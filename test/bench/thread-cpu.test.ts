// The sync benchmark's reading of each thread's CPU: what main and another
// thread burn shows on each, apart.
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { threadCpuMs, threadCpuSince } from './thread-cpu';

/** Burns `ms` of this thread's CPU (process.cpuUsage counts every thread: only this one runs meanwhile). */
function burn(ms: number): void {
  const start = process.cpuUsage();
  for (let x = 0; ; x++) {
    if (x % 100_000 === 0) {
      const used = process.cpuUsage(start);
      if ((used.user + used.system) / 1000 >= ms) return;
    }
  }
}

test.runIf(process.platform === 'linux')(
  "main's CPU and the busiest other thread's are read apart, each near what it burned",
  async () => {
    const before = threadCpuMs();
    burn(300);
    // Read while the worker runs: a thread that ended is no longer listed (the pull worker outlives a first sync).
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const start = process.hrtime.bigint();
       while (process.hrtime.bigint() - start < 600_000_000n) {}
       parentPort.postMessage('spun');
       setInterval(() => {}, 1000);`,
      { eval: true },
    );
    await new Promise((resolve) => worker.once('message', resolve));

    const used = threadCpuSince(before);
    await worker.terminate();

    expect(used).not.toBeNull();
    expect(used?.main).toBeGreaterThanOrEqual(250);
    // The worker spun 600 ms of wall time; on a busy machine it may have had less of a core.
    expect(used?.busiestOther).toBeGreaterThanOrEqual(150);
    expect(used?.main).toBeLessThan(2000);
  },
);

// Waiting for the browser to go quiet before a timed opening. Each new context
// opens a window of its own, and Chromium loads that window's own pages (the
// omnibox popup's WebUI, in a renderer of its own) in the background: about
// 1.3 s of both cores here, right when the app's page would be opening. An
// Electron window has none of it, so an opening timed then measured Chromium
// as much as the app (the ui benchmark's first rows: 880-1 000 ms with it,
// 510-670 once it had settled).
import type { Browser } from 'playwright-core';

interface ProcessInfo {
  type: string;
  id: number;
  /** Seconds of CPU the process has used. */
  cpuTime: number;
}

export interface QuietOptions {
  /** The span the browser's processes must stay under `busyShare` of one core. */
  quietMs?: number;
  busyShare?: number;
  /** Gives up waiting after this long (a browser never quiet is timed as it is). */
  maxMs?: number;
}

/**
 * Resolves once every process of the browser together has used less than `busyShare` of one
 * core over the last `quietMs`, or after `maxMs`; returns how long it waited. Reads the CPU time
 * Chromium reports for its processes (DevTools protocol, SystemInfo.getProcessInfo), so it works
 * on every platform the benchmark runs on.
 */
export async function untilBrowserQuiet(
  browser: Browser,
  { quietMs = 300, busyShare = 0.1, maxMs = 10_000 }: QuietOptions = {},
): Promise<number> {
  const session = await browser.newBrowserCDPSession();
  const pollMs = 100;
  const started = performance.now();
  try {
    const cpuMs = async () => {
      const { processInfo } = await session.send('SystemInfo.getProcessInfo');
      return (processInfo as ProcessInfo[]).reduce((total, process) => total + process.cpuTime, 0) * 1000;
    };
    // CPU totals at each poll, newest last, as many as the quiet span holds.
    const samples: { at: number; cpu: number }[] = [];
    while (performance.now() - started < maxMs) {
      samples.push({ at: performance.now(), cpu: await cpuMs() });
      while (samples.length > 1 && samples.at(-1)!.at - samples[1]!.at >= quietMs) samples.shift();
      const first = samples[0]!;
      const last = samples.at(-1)!;
      const span = last.at - first.at;
      if (span >= quietMs && last.cpu - first.cpu < span * busyShare) break;
      await new Promise((done) => setTimeout(done, pollMs));
    }
    return performance.now() - started;
  } finally {
    await session.detach();
  }
}

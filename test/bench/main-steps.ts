// Main's steps and what made a long one long. On a 2-core machine shared with
// Chromium, the emulator and the pull worker, a step of main's event loop can
// outlast its code: the thread waits, runnable, while other threads hold both
// cores. A timer ticks every millisecond on main's loop; the time between two
// ticks is a step (what ran in between, or the loop idle). At each tick Linux's
// /proc/self/task/<main>/schedstat gives main's CPU and its time waiting for a
// core so far (nanoseconds), so each step splits into the CPU main's code used,
// the wait for a core, and the rest: asleep in a system call (a write the
// kernel throttled) or idle. Elsewhere (macOS, Windows) there is no such file:
// the steps are timed, their parts null.
import { closeSync, openSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface StepParts {
  /** The longest step's wall time, ms (one tick's millisecond included). */
  ms: number;
  /** Main's CPU in it, ms; null where /proc is not there. */
  cpuMs: number | null;
  /** Its time runnable but waiting for a core, ms; null where /proc is not there. */
  waitingMs: number | null;
}

export interface MainSteps {
  longest: StepParts;
  /** The most CPU main used in any one step, ms (the part of a step its code sets); null without /proc. */
  mostCpuMs: number | null;
}

/** Main thread's CPU and runqueue wait so far, ns, read from an open schedstat file (pread at 0). */
type SchedReader = () => { cpuNs: number; waitNs: number } | null;

function schedReader(): { read: SchedReader; close: () => void } {
  let fd: number;
  try {
    // The main thread's id is the process's.
    fd = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  } catch {
    return { read: () => null, close: () => undefined };
  }
  const buffer = Buffer.alloc(128);
  return {
    read: () => {
      const length = readSync(fd, buffer, 0, buffer.length, 0);
      // "<on cpu ns> <waiting on a runqueue ns> <timeslices>\n"
      const [cpu, wait] = buffer.toString('latin1', 0, length).split(' ');
      return { cpuNs: Number(cpu), waitNs: Number(wait) };
    },
    close: () => closeSync(fd),
  };
}

const ms = (ns: number) => ns / 1e6;

/** Starts watching main's steps; `stop` ends it and tells the longest step's parts and the most CPU of any step. */
export function watchMainSteps(): { stop: () => MainSteps } {
  const sched = schedReader();
  let lastAt = performance.now();
  let lastSched = sched.read();
  const longest: StepParts = { ms: 0, cpuMs: null, waitingMs: null };
  let mostCpuMs: number | null = lastSched === null ? null : 0;
  const tick = () => {
    const at = performance.now();
    const now = sched.read();
    const step = at - lastAt;
    const cpuMs = now && lastSched ? ms(now.cpuNs - lastSched.cpuNs) : null;
    const waitingMs = now && lastSched ? ms(now.waitNs - lastSched.waitNs) : null;
    if (step > longest.ms) Object.assign(longest, { ms: step, cpuMs, waitingMs });
    if (cpuMs !== null && mostCpuMs !== null) mostCpuMs = Math.max(mostCpuMs, cpuMs);
    lastAt = at;
    lastSched = now;
  };
  const timer = setInterval(tick, 1);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      sched.close();
      return { longest: { ...longest }, mostCpuMs };
    },
  };
}

// The CPU each thread of this process has used, read from Linux's
// /proc/self/task/<tid>/stat (user and system time, fields 14 and 15, in clock
// ticks: 100 a second, Linux's USER_HZ on every architecture it ships). The
// sync benchmark reads it around the first sync to tell which thread sets its
// pace (stop 55's profile: the pull worker, busy all the run). Elsewhere
// (macOS, Windows) there is no such file: null.
import { readdirSync, readFileSync } from 'node:fs';

const MS_PER_TICK = 10;

/** Each running thread's CPU so far, in ms, by thread id (one that ended is no longer listed); null where /proc is not there. */
export function threadCpuMs(): Map<number, number> | null {
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const used = new Map<number, number>();
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // The name (field 2) is in parentheses and may hold spaces: the fields after it are read from its end.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      used.set(Number(tid), (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK);
    } catch {
      // A thread that ended between the listing and the read used nothing more.
    }
  }
  return used;
}

/** What the main thread and the busiest other thread used since `before` (a threadCpuMs reading), in ms. */
export function threadCpuSince(
  before: Map<number, number> | null,
): { main: number; busiestOther: number } | null {
  const after = threadCpuMs();
  if (before === null || after === null) return null;
  let busiestOther = 0;
  for (const [tid, ms] of after) {
    if (tid === process.pid) continue;
    busiestOther = Math.max(busiestOther, ms - (before.get(tid) ?? 0));
  }
  return { main: (after.get(process.pid) ?? 0) - (before.get(process.pid) ?? 0), busiestOther };
}

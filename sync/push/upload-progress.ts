// An upload's progress as the pusher tells it: the bytes sent of the body's
// length, at most every `intervalMs` (a 25 MB body is written in hundreds of
// chunks; the screens need a few updates a second, not one per chunk). The
// start and the end are told at once; bytes sent between two tellings are
// told when the interval is over, so an upload that stalls (a slow link, a
// server that reads slowly) shows where it stands, not where it was.
import type { ApiClock } from '../api/clock';

/** About ten a second: a row that moves smoothly without a flood of events across IPC. */
export const UPLOAD_PROGRESS_INTERVAL_MS = 100;

export function throttledProgress(
  report: (sentBytes: number, totalBytes: number) => void,
  clock: ApiClock,
  intervalMs = UPLOAD_PROGRESS_INTERVAL_MS,
): (sentBytes: number, totalBytes: number) => void {
  let toldAt: number | null = null;
  let latest: [number, number] | null = null;
  let cancelLater: (() => void) | null = null;
  const tell = (sentBytes: number, totalBytes: number) => {
    cancelLater?.();
    cancelLater = null;
    latest = null;
    toldAt = clock.now();
    report(sentBytes, totalBytes);
  };
  return (sentBytes, totalBytes) => {
    const now = clock.now();
    if (sentBytes === 0 || sentBytes === totalBytes || toldAt === null || now - toldAt >= intervalMs) {
      tell(sentBytes, totalBytes);
      return;
    }
    latest = [sentBytes, totalBytes];
    cancelLater ??= clock.schedule(toldAt + intervalMs - now, () => {
      cancelLater = null;
      if (latest !== null) tell(...latest);
    });
  };
}

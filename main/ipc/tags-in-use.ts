// The tags in use that workspace:get answers: scanned afresh after tasks change, one scan at a time.
import type { Mirror } from '../../db/mirror';

/** A scan of the mirror's tags, and whether it has begun (a change before then is in its answer). */
interface TagScan {
  readonly mirror: Mirror;
  readonly value: Promise<string[]>;
  started: boolean;
}

/**
 * Counting every task's tags is steps over every row (db/tasks/task-filing.ts): at a million tasks,
 * about 200 of them, seconds of main's CPU. A sync pass changes tasks with each page, and the
 * window asks for the workspace after each change: a scan started per change left dozens running
 * at once, and the page waited 30-60 s for its first rows behind them. So a change during a scan
 * queues one scan after it, which every call until it begins shares; a change before it begins
 * is in its answer anyway.
 */
export class TagsInUse {
  /** The scan whose answer is the tags as they are now (null: none since the last change). */
  private current: TagScan | null = null;
  /** Settles when the scan last queued has ended, whatever its outcome. */
  private idle: Promise<unknown> = Promise.resolve();

  constructor(private readonly scan: (mirror: Mirror) => Promise<string[]> = (m) => m.tasks.tagsInUse()) {}

  /** The mirror's tasks changed: the next call scans again, unless a queued scan has yet to begin. */
  changed(): void {
    if (this.current?.started !== false) this.current = null;
  }

  of(mirror: Mirror): Promise<string[]> {
    if (this.current?.mirror === mirror) return this.current.value;
    const scan: TagScan = {
      mirror,
      started: false,
      value: this.idle.then(() => {
        scan.started = true;
        return this.scan(mirror);
      }),
    };
    this.current = scan;
    this.idle = scan.value.catch(() => undefined);
    // A failed scan (the mirror closed on sign-out) is not kept as the answer.
    scan.value.catch(() => {
      if (this.current === scan) this.current = null;
    });
    return scan.value;
  }
}

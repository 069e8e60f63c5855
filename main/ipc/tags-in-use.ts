// The tags in use that workspace:get answers: scanned afresh after tasks change, one scan at a time,
// answered as last counted while a scan runs (the window is told when it ends with others).
import type { Mirror } from '../../db/mirror';

/** A scan of the mirror's tags, and whether it has begun (a change before then is in its answer). */
interface TagScan {
  readonly mirror: Mirror;
  readonly value: Promise<string[]>;
  started: boolean;
  /** Its answer once it ended. */
  counted: string[] | null;
  /** Whether `known` waits on it to tell a recount (told once a scan). */
  followed: boolean;
}

const sameTags = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((tag, i) => tag === b[i]);

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
  /** The tags the last scan to end counted, of which mirror. */
  private counted: { mirror: Mirror; tags: string[] } | null = null;
  /** The tags `known` last answered, of which mirror. */
  private answered: { mirror: Mirror; tags: string[] } | null = null;

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
      counted: null,
      followed: false,
      value: this.idle.then(async () => {
        scan.started = true;
        const tags = await this.scan(mirror);
        scan.counted = tags;
        this.counted = { mirror, tags };
        return tags;
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

  /**
   * The tags at once, as last counted (none before a first count), never waiting for a scan:
   * the window asks for the workspace as it opens, and a scan of every task's tags (~60 ms of
   * main's CPU, ~280 ms of wall time at 100 000 tasks) held its projects and teams, and the calls
   * behind it, until it ended. Tasks changed since the last count begin a scan (or join the one
   * queued); when it ends with other tags than those answered, `recounted` is told, once a scan,
   * so that the window asks again.
   */
  known(mirror: Mirror, recounted: () => void): string[] {
    const value = this.of(mirror);
    // `of` left the scan for this mirror current: the one that answered, or the one to wait for.
    const scan = this.current;
    const tags = scan?.counted ?? (this.counted?.mirror === mirror ? this.counted.tags : []);
    this.answered = { mirror, tags };
    if (scan !== null && scan.counted === null && !scan.followed) {
      scan.followed = true;
      value.then(
        (counted) => {
          if (this.answered?.mirror === mirror && !sameTags(counted, this.answered.tags)) recounted();
        },
        () => undefined,
      );
    }
    return tags;
  }
}

// Flushes the write-ahead log to disk on libuv's threads after the page
// writer's commits. Those commit with synchronous=NORMAL (server data can be
// fetched again), so their log pages sit dirty in the OS cache until a
// checkpoint; the next commit that does fsync (a person's edit, FULL, on the
// app's main thread) would flush all of them, measured 20-48 ms after a first
// load's build. Flushing here, as they come, leaves an edit only its own pages.
import { close, fsync, open } from 'node:fs';

export class BackgroundLogFlush {
  private fd: number | null = null;
  private opening = false;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  /** Flushes done (whatever their outcome). */
  flushes = 0;
  /** Flushes that failed, and the last one's error (a writer that waits for its pages asks: `failedSince`). */
  failures = 0;
  private lastFailure: NodeJS.ErrnoException | null = null;

  constructor(private readonly logFile: string) {}

  /** A commit landed: flush the log soon (one flush at a time; commits meanwhile get one more). */
  soon(): void {
    if (this.closed) return;
    if (this.running !== null || this.opening) {
      this.again = true;
      return;
    }
    if (this.fd === null) {
      // 'r+': Windows flushes a file only through a handle that may write it.
      this.opening = true;
      open(this.logFile, 'r+', (error, fd) => {
        this.opening = false;
        if (error) return; // No log yet (nothing committed in WAL mode): the next commit tries again.
        if (this.closed) close(fd, () => undefined);
        else {
          this.fd = fd;
          this.soon();
        }
      });
      return;
    }
    const fd = this.fd;
    this.running = new Promise<void>((resolve) => {
      fsync(fd, (error) => {
        // A failed flush leaves the pages to the next checkpoint; a writer waiting for them is told (failedSince).
        if (error) {
          this.failures++;
          this.lastFailure = error;
        }
        this.running = null;
        this.flushes++;
        resolve();
        if (this.closed) this.release();
        else if (this.again) {
          this.again = false;
          this.soon();
        }
      });
    });
  }

  /** Resolves once no flush is running (tests, and closing). */
  async settled(): Promise<void> {
    while (this.running !== null || this.opening) {
      if (this.running !== null) await this.running;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The error of the last failed flush when one failed after `failures` read `before`; else null. */
  failedSince(before: number): NodeJS.ErrnoException | null {
    return this.failures > before ? this.lastFailure : null;
  }

  /** The mirror closes: no more flushes; the handle goes once the running one is done. */
  close(): void {
    this.closed = true;
    if (this.running === null) this.release();
  }

  private release(): void {
    if (this.fd !== null) close(this.fd, () => undefined);
    this.fd = null;
  }
}

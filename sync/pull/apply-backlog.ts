// The pages that walks going at once (the task list's chains) have fetched
// and not yet applied, bounded together. Apart from the walk, which takes it
// as an option and honours the same bound on its own.

/** How many applied pages may wait behind the fetches (bounds memory while the mirror catches up). */
export const MAX_QUEUED_APPLIES = 2;

/**
 * Pages fetched and waiting for the store, counted across the walks that
 * share it: each walk waits while the count is over the bound, so several
 * walks at once hold hardly more pages in memory than one (the store applies
 * one page at a time whoever sent it).
 */
export class ApplyBacklog {
  private queued = 0;
  private waiters: (() => void)[] = [];

  constructor(private readonly limit: number = MAX_QUEUED_APPLIES) {}

  add(): void {
    this.queued += 1;
  }

  done(): void {
    this.queued -= 1;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }

  /** Resolves once the pages waiting are within the bound. */
  async room(): Promise<void> {
    while (this.queued > this.limit) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

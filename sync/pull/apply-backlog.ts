// The pages that walks going at once (the task list's chains) have fetched
// and not yet applied, bounded together: those queued for the store, and
// those asked ahead of the chains. Apart from the walk, which takes it as an
// option and honours the same bounds on its own.

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
  /** The walks' pages asked ahead, bounded together too. */
  readonly ahead = new AheadSlots();

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

/**
 * Pages asked ahead of the chain (revalidating the stored chain) whose answers
 * may hold a whole page until the chain reaches them. On a re-sync where every
 * page changed, each answer is a page of 1 000 tasks kept (in the pull worker,
 * read) until the chain applies it, and the applies are what is slow: asked
 * all at once, the stored chain's pages came in long before the chain reached
 * them: at 100 000 tasks the pull worker held up to 89 of the 100 pages and
 * the headless sync peaked at 515-590 MB (404-413 with 8 slots; at a million
 * a bench process reached ~3 GB). A 304 holds nothing and frees its slot at
 * once, so a re-sync that finds nothing changed asks as far ahead as before.
 */
export const MAX_PAGES_ASKED_AHEAD = 8;

/**
 * At most `limit` pages asked ahead held at once, given in the order asked; a
 * page the chain reaches while it waits goes without one (the chain never waits
 * on its own read-ahead, which may hold pages a shifted chain will not use).
 */
export class AheadSlots {
  private used = 0;
  private readonly waiting: { grant: () => void; settled: boolean }[] = [];

  constructor(private readonly limit: number = MAX_PAGES_ASKED_AHEAD) {}

  /** Resolves true once a slot is the caller's, or false as soon as `reached` resolves first. */
  take(reached: Promise<void>): Promise<boolean> {
    if (this.used < this.limit) {
      this.used += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = { grant: () => resolve(true), settled: false };
      this.waiting.push(waiter);
      void reached.then(() => {
        if (waiter.settled) return;
        waiter.settled = true;
        resolve(false);
      });
    });
  }

  /** A slot given back: it passes to the first page still waiting for one. */
  give(): void {
    for (let waiter = this.waiting.shift(); waiter !== undefined; waiter = this.waiting.shift()) {
      if (waiter.settled) continue;
      waiter.settled = true;
      waiter.grant();
      return;
    }
    this.used -= 1;
  }
}

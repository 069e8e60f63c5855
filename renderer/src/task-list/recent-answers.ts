// The first pages (and counts) of the list's recent queries, exact until the
// mirror changes: a Backspace, or going back to a filter just left, shows its
// rows at once instead of asking main again for the answer it just gave.
import type { RowPage } from './row-window';

export interface RecentAnswer {
  page: RowPage;
  /** The query's count once it arrived; null before. */
  count: number | null;
}

/** Queries remembered; the oldest used goes first. */
const DEFAULT_LIMIT = 32;

export class RecentAnswers {
  private readonly answers = new Map<string, RecentAnswer>();
  /** Moves on every change of the mirror: answers to what was asked before it are not kept. */
  private epoch = 0;

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  /** The moment a query is asked: `keep` and `keepCount` take it, to refuse answers that are older than a change. */
  now(): number {
    return this.epoch;
  }

  /** Whether `key` is remembered, without counting as a use (`get` does). */
  has(key: string): boolean {
    return this.answers.has(key);
  }

  get(key: string): RecentAnswer | null {
    const answer = this.answers.get(key);
    if (answer === undefined) return null;
    // Used: the most recent again.
    this.answers.delete(key);
    this.answers.set(key, answer);
    return answer;
  }

  /** Keeps the first page of `key`, asked at `askedAt` (from `now()`), unless the mirror changed since. */
  keep(key: string, askedAt: number, page: RowPage): void {
    if (askedAt !== this.epoch) return;
    this.answers.delete(key);
    this.answers.set(key, { page, count: null });
    for (const oldest of this.answers.keys()) {
      if (this.answers.size <= this.limit) break;
      this.answers.delete(oldest);
    }
  }

  /** Adds the count of a kept page, unless the mirror changed since it was asked. */
  keepCount(key: string, askedAt: number, count: number): void {
    const answer = this.answers.get(key);
    if (askedAt === this.epoch && answer !== undefined) answer.count = count;
  }

  /** The mirror changed: nothing remembered is exact any more. */
  clear(): void {
    this.epoch++;
    this.answers.clear();
  }
}

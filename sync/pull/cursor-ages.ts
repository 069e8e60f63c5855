// What the service has shown about how long its cursors stay accepted: the
// youngest cursor it refused. A stored cursor at least that old (kept from an
// interrupted pass, an earlier run's) is not resumed from, nor taken from a 304
// once the list restarts: the pass starts over with fresh cursors instead. A
// refusal that was not about age (the service honoured an older cursor since)
// is forgotten, so that one refusal at random does not cost every later resume.

export class CursorAges {
  /** Age (ms) of the youngest cursor refused so far; null while none was. */
  private youngestRefused: number | null = null;

  /** The service refused a cursor it handed out at `issuedAt` (epoch ms), seen at `now`. */
  refused(issuedAt: number, now: number): void {
    const age = Math.max(0, now - issuedAt);
    if (this.youngestRefused === null || age < this.youngestRefused) this.youngestRefused = age;
  }

  /** The service accepted a cursor it handed out at `issuedAt`: as old or older than a refused one, age was not why. */
  honoured(issuedAt: number, now: number): void {
    if (this.youngestRefused !== null && now - issuedAt >= this.youngestRefused) this.youngestRefused = null;
  }

  /** Whether a cursor handed out at `issuedAt` is younger than any the service refused. */
  usable(issuedAt: number, now: number): boolean {
    return this.youngestRefused === null || now - issuedAt < this.youngestRefused;
  }
}

/** When a stored page (its next_cursor) was received, as epoch ms; 0 when the store does not say. */
export function issuedAtOf(page: { fetchedAt?: string | undefined }): number {
  const at = page.fetchedAt === undefined ? Number.NaN : Date.parse(page.fetchedAt);
  return Number.isNaN(at) ? 0 : at;
}

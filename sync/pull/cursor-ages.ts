// What the service has shown about how long its cursors stay accepted: the
// youngest cursor it refused. A stored cursor at least that old (kept from an
// earlier pass or an interrupted earlier run) is not resumed from, revalidated
// ahead or taken from a 304: the pass starts over with fresh cursors instead.

export class CursorAges {
  /** Age (ms) of the youngest cursor refused so far; null while none was. */
  private youngestRefused: number | null = null;

  /** The service refused a cursor it handed out at `issuedAt` (epoch ms), seen at `now`. */
  refused(issuedAt: number, now: number): void {
    const age = Math.max(0, now - issuedAt);
    if (this.youngestRefused === null || age < this.youngestRefused) this.youngestRefused = age;
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

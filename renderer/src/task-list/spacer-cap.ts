// How tall the task grid's spacer may be before its scroll is scaled
// (tall-scroll.ts). Apart from it, with no DOM types, so that the end-to-end
// test that lowers the cap can name the page's parameter.

/** Below every browser's limit on an element's height (Firefox's is near 17 895 697 px). */
export const MAX_SPACER_HEIGHT = 16_000_000;

/** The page's `?grid-max-height=N` lowers the cap, so that a test's few thousand rows pass it. */
export const SPACER_CAP_PARAMETER = 'grid-max-height';

/** The cap a page asked for in its address (`location.search`), never above `MAX_SPACER_HEIGHT`. */
export function spacerCap(search: string): number {
  const asked = Number(new URLSearchParams(search).get(SPACER_CAP_PARAMETER) ?? Number.NaN);
  return Number.isFinite(asked) && asked > 0 ? Math.min(asked, MAX_SPACER_HEIGHT) : MAX_SPACER_HEIGHT;
}

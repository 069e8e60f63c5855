// Where keyboard focus goes in the list screen: the search field and the
// grid's rows. Shortcuts, the palette and the filter bar move it through here.

export const SEARCH_INPUT_ID = 'task-search';
/** The grid: it holds the keyboard focus and names the active row. */
export const GRID_TEST_ID = 'task-grid';
/** The grid's scrolling body. */
export const GRID_SCROLL_TEST_ID = 'task-grid-scroll';

export function focusList(): void {
  document.querySelector<HTMLElement>(`[data-testid="${GRID_TEST_ID}"]`)?.focus();
}

export function focusSearchInput(): void {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (input instanceof HTMLInputElement) {
    input.focus();
    input.select();
  }
}

/** The list on screen moves its active row by a step (the grid registers it while shown). */
let stepList: ((step: number) => void) | null = null;

export function registerListStep(step: (by: number) => void): () => void {
  stepList = step;
  return () => {
    if (stepList === step) stepList = null;
  };
}

/**
 * J or K pressed outside the list (nothing focused, a button): the list takes the focus and moves,
 * as it would had it held the focus. False when no list is on screen.
 */
export function stepListFromPage(step: number): boolean {
  if (stepList === null) return false;
  focusList();
  stepList(step);
  return true;
}

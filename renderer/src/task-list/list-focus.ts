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

// Where keyboard focus goes in the list screen: the search field and the
// grid's rows. Shortcuts, the palette and the filter bar move it through here.

export const SEARCH_INPUT_ID = 'task-search';
export const GRID_BODY_TEST_ID = 'task-grid-body';

export function focusList(): void {
  document.querySelector<HTMLElement>(`[data-testid="${GRID_BODY_TEST_ID}"]`)?.focus();
}

export function focusSearchInput(): void {
  const input = document.getElementById(SEARCH_INPUT_ID);
  if (input instanceof HTMLInputElement) {
    input.focus();
    input.select();
  }
}

// What the task list's "Save view" needs of a view, apart from the wire schemas
// (view.ts): its name's bound and its filters from the list's. The list screen
// is the app's first, and it loads no schema code (zod) before its first rows.

/** The longest name a view may have (gaps.md: a view's name is 1..120). */
export const VIEW_NAME_MAX = 120;

/**
 * A task-list filter (the filter bar's and the search language's, in the
 * service's vocabulary) as a view's filters: every key's values as a list of
 * strings (`overdue: true` as `["true"]`, a day bound as its one day), what
 * filters nothing left out, so the view's rows are the list's rows.
 */
export function viewFiltersOf(
  filter: Readonly<Record<string, string | readonly string[] | boolean | undefined>>,
): Record<string, string[]> {
  const filters: Record<string, string[]> = {};
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined || value === false || value === '') continue;
    if (key === 'search_fields' && value === 'all') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) filters[key] = [...(value as readonly string[])];
    } else filters[key] = [String(value)];
  }
  return filters;
}

// The filter bar's and the column headers' state, shared by the list, the
// shortcuts and the command palette. The search box's text and the chips are
// one state: typing sets the chips from the text (protocol/task-search.ts), and
// a chip rewrites the text from the chips.
import { create } from 'zustand';
import { formatTaskSearch, parseTaskSearch, type TaskSearchProblem } from '../../../protocol/task-search';
import { useWorkspace } from '../store/workspace-store';
import {
  type ChoiceKey,
  type DateKey,
  DEFAULT_SORT,
  type ListFilters,
  listFiltersOf,
  type ListSort,
  NO_FILTERS,
  searchContextOf,
  searchFilterOf,
  type SortKey,
} from './list-query';

export interface ListState {
  filters: ListFilters;
  /** The search box's text: the filters in the search language, with free words for the rest. */
  query: string;
  /** The parts of `query` not applied, with their reasons. */
  problems: readonly TaskSearchProblem[];
  /** Where the caret is while the search box offers suggestions: the term there is still being typed. */
  completingAt: number | null;
  sort: ListSort;
  /** The filter panel (beyond search and status) is open. */
  filtersOpen: boolean;
}

export const useList = create<ListState>(() => ({
  filters: NO_FILTERS,
  query: '',
  problems: [],
  completingAt: null,
  sort: DEFAULT_SORT,
  filtersOpen: false,
}));

const sameFilters = (a: ListFilters, b: ListFilters) =>
  a.searchFields === b.searchFields &&
  JSON.stringify(searchFilterOf(a)) === JSON.stringify(searchFilterOf(b));

/**
 * The search box's text typed: its filters become the chips. While a key or
 * value is half typed the filters are unchanged, and so is the object, so the
 * list is not asked again.
 */
export function setQuery(query: string): void {
  const parsed = parseTaskSearch(query, searchContextOf(useWorkspace.getState().workspace));
  useList.setState((state) => {
    const filters = listFiltersOf(parsed.filter, state.filters.searchFields);
    return {
      query,
      problems: parsed.problems,
      filters: sameFilters(filters, state.filters) ? state.filters : filters,
    };
  });
}

/** A chip or a field of the panel changed: the text is written again from the filters, keeping what it could not apply. */
function setFilters(change: (filters: ListFilters) => ListFilters): void {
  useList.setState((state) => {
    const filters = change(state.filters);
    const context = searchContextOf(useWorkspace.getState().workspace);
    const kept = state.problems.map((problem) => problem.text);
    const query = [formatTaskSearch(searchFilterOf(filters), context), ...kept]
      .filter((t) => t !== '')
      .join(' ');
    return { filters, query, problems: parseTaskSearch(query, context).problems };
  });
}

// Names typed before the workspace arrived (or renamed since) resolve against the one now held.
useWorkspace.subscribe((workspace, before) => {
  const { query } = useList.getState();
  if (workspace.workspace !== before.workspace && query !== '') setQuery(query);
});

export function setSearchFields(searchFields: ListFilters['searchFields']): void {
  useList.setState((state) => ({ filters: { ...state.filters, searchFields } }));
}

export function setChoice(key: ChoiceKey, values: readonly string[]): void {
  setFilters((filters) => ({ ...filters, choices: { ...filters.choices, [key]: values } }));
}

export function toggleChoice(key: ChoiceKey, value: string): void {
  setFilters((filters) => {
    const current = filters.choices[key];
    const next = current.includes(value) ? current.filter((v) => v !== value) : [...current, value];
    return { ...filters, choices: { ...filters.choices, [key]: next } };
  });
}

export function setDate(key: DateKey, value: string): void {
  setFilters((filters) => ({ ...filters, dates: { ...filters.dates, [key]: value } }));
}

export function setOverdue(overdue: boolean): void {
  setFilters((filters) => ({ ...filters, overdue }));
}

export function clearFilters(): void {
  useList.setState({ filters: NO_FILTERS, query: '', problems: [] });
}

/** A header click: the same column flips the order, another column sorts ascending. */
export function sortBy(by: SortKey): void {
  useList.setState((state) => ({
    sort: { by, order: state.sort.by === by && state.sort.order === 'asc' ? 'desc' : 'asc' },
  }));
}

export function setSort(sort: ListSort): void {
  useList.setState({ sort });
}

export function setFiltersOpen(filtersOpen: boolean): void {
  useList.setState({ filtersOpen });
}

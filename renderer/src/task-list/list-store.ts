// The filter bar's and the column headers' state, shared by the list, the
// shortcuts and the command palette.
import { create } from 'zustand';
import {
  type ChoiceKey,
  type DateKey,
  DEFAULT_SORT,
  type ListFilters,
  type ListSort,
  NO_FILTERS,
  type SortKey,
} from './list-query';

export interface ListState {
  filters: ListFilters;
  sort: ListSort;
  /** The filter panel (beyond search and status) is open. */
  filtersOpen: boolean;
}

export const useList = create<ListState>(() => ({
  filters: NO_FILTERS,
  sort: DEFAULT_SORT,
  filtersOpen: false,
}));

function setFilters(change: (filters: ListFilters) => ListFilters): void {
  useList.setState((state) => ({ filters: change(state.filters) }));
}

export function setSearch(search: string): void {
  setFilters((filters) => ({ ...filters, search }));
}

export function setSearchFields(searchFields: ListFilters['searchFields']): void {
  setFilters((filters) => ({ ...filters, searchFields }));
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
  useList.setState({ filters: NO_FILTERS });
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

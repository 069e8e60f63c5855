// The filter bar: instant search in the search language (search-box.tsx), the
// status chips, sorting, and (behind "Filters") every other filter of the
// service's task list: priority, assignee (with "me"), project, team, tags,
// type, review, origin, the four date bounds and overdue. The chips and the
// search text are one state (list-store.ts). Every control is labelled.
import { memo, useId } from 'react';
import type { ListScope } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { ORIGINS, PRIORITIES, REVIEWS, STATUSES, TASK_TYPES, valueWord } from '../vocabulary/task-words';
import {
  activeFilterCount,
  type ChoiceKey,
  DATE_KEYS,
  type DateKey,
  type ListFilters,
  scopeKey,
  type SortKey,
} from './list-query';
import {
  clearFilters,
  setChoice,
  setDate,
  setFiltersOpen,
  setOverdue,
  setSort,
  toggleChoice,
  useList,
} from './list-store';
import { SearchBox, SearchProblems } from './search-box';
import './task-list.css';

const SORT_CHOICES: { key: SortKey; label: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'status_rank', label: 'Status (workflow order)' },
  { key: 'status', label: 'Status (A–Z)' },
  { key: 'priority_rank', label: 'Priority (low to urgent)' },
  { key: 'priority', label: 'Priority (A–Z)' },
  { key: 'due_date', label: 'Due date' },
  { key: 'start_date', label: 'Start date' },
  { key: 'created_at', label: 'Created' },
  { key: 'assignee', label: 'Assignee' },
  { key: 'project_id', label: 'Project' },
  { key: 'task_type', label: 'Type' },
  { key: 'task_id', label: 'Task id' },
];

/** The chips behind "Filters", in their order (Status stands in the bar's first row). */
const chipGroups: { label: string; choiceKey: ChoiceKey; values: readonly string[] }[] = [
  { label: 'Priority', choiceKey: 'priority', values: PRIORITIES },
  { label: 'Type', choiceKey: 'task_type', values: TASK_TYPES },
  { label: 'Review', choiceKey: 'review', values: [...REVIEWS, 'none'] },
  { label: 'Created via', choiceKey: 'created_via', values: [...ORIGINS, 'none'] },
];

const DATE_LABELS: Record<DateKey, string> = {
  due_after: 'Due from',
  due_before: 'Due until',
  created_after: 'Created from',
  created_before: 'Created until',
};

function ChipGroup({
  label,
  choiceKey,
  values,
  selected,
}: {
  label: string;
  choiceKey: ChoiceKey;
  values: readonly string[];
  selected: readonly string[];
}) {
  const id = useId();
  return (
    <div className="chip-group" role="group" aria-labelledby={id}>
      <span id={id} className="chip-group-label">
        {label}
      </span>
      {values.map((value) => (
        <button
          key={value}
          type="button"
          className="chip"
          aria-pressed={selected.includes(value)}
          onClick={() => toggleChoice(choiceKey, value)}
        >
          {valueWord(value)}
        </button>
      ))}
    </div>
  );
}

/** A choice among many (assignee, project, team, tags): pick from a list, shown as removable chips. */
function PickList({
  label,
  choiceKey,
  options,
  selected,
}: {
  label: string;
  choiceKey: ChoiceKey;
  options: readonly { value: string; label: string }[];
  selected: readonly string[];
}) {
  const id = useId();
  const labelOf = (value: string) => options.find((o) => o.value === value)?.label ?? valueWord(value);
  return (
    <div className="pick-list">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        value=""
        onChange={(event) => {
          const value = event.target.value;
          if (value !== '' && !selected.includes(value)) setChoice(choiceKey, [...selected, value]);
        }}
      >
        <option value="">{selected.length === 0 ? 'Any' : 'Add…'}</option>
        {options
          .filter((option) => !selected.includes(option.value))
          .map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
      </select>
      {selected.map((value) => (
        <button
          key={value}
          type="button"
          className="chip is-removable"
          aria-label={`Remove ${label.toLowerCase()} ${labelOf(value)}`}
          onClick={() =>
            setChoice(
              choiceKey,
              selected.filter((v) => v !== value),
            )
          }
        >
          {labelOf(value)} <span aria-hidden="true">×</span>
        </button>
      ))}
    </div>
  );
}

/** Why a term for the key the list's scope fixes (project: in a project's own list) changes nothing. */
function fixedKeyNote(fixed: ChoiceKey | null, filters: ListFilters): string | null {
  if (fixed === null || filters.choices[fixed].length === 0) return null;
  const shown = fixed === 'assignee' ? 'your tasks' : `one ${fixed}'s tasks`;
  return `${fixed}: not applied: this list shows ${shown}; open All tasks to choose another ${fixed}`;
}

export const FilterBar = memo(function FilterBar({ scope }: { scope: ListScope }) {
  const filters = useList((state) => state.filters);
  const sort = useList((state) => state.sort);
  const open = useList((state) => state.filtersOpen);
  const workspace = useWorkspace((state) => state.workspace);
  const fixed = scopeKey(scope);
  const active = activeFilterCount(filters);
  const panelId = useId();

  const members = (workspace?.members ?? []).map((m) => ({ value: m.username, label: m.username }));
  const assigneeOptions = [{ value: 'me', label: 'Me' }, ...members];
  const projectOptions = [
    { value: '__unfiled__', label: 'No project' },
    ...(workspace?.projects ?? []).map((p) => ({ value: p.project_id, label: p.name })),
  ];
  const teamOptions = [
    { value: '__none__', label: 'No team' },
    ...(workspace?.teams ?? []).map((t) => ({ value: t.team_id, label: t.name })),
  ];
  const tagOptions = (workspace?.tags ?? []).map((tag) => ({ value: tag, label: tag }));
  const pickLists: { label: string; choiceKey: ChoiceKey; options: { value: string; label: string }[] }[] = [
    { label: 'Assignee', choiceKey: 'assignee', options: assigneeOptions },
    { label: 'Project', choiceKey: 'project', options: projectOptions },
    { label: 'Team', choiceKey: 'team', options: teamOptions },
    { label: 'Tags', choiceKey: 'tags', options: tagOptions },
  ];

  return (
    <div className="filter-bar">
      <div className="filter-row">
        <SearchBox />
        <ChipGroup label="Status" choiceKey="status" values={STATUSES} selected={filters.choices.status} />
        <div className="list-controls">
          <div className="sort-box">
            <label className="visually-hidden" htmlFor="task-sort">
              Sort by
            </label>
            <select
              id="task-sort"
              value={sort.by}
              onChange={(event) => setSort({ by: event.target.value as SortKey, order: sort.order })}
            >
              {SORT_CHOICES.map((choice) => (
                <option key={choice.key} value={choice.key}>
                  Sort: {choice.label}
                </option>
              ))}
            </select>
            <button
              type="button"
              className="button icon-button"
              aria-label={
                sort.order === 'asc' ? 'Ascending; switch to descending' : 'Descending; switch to ascending'
              }
              onClick={() => setSort({ by: sort.by, order: sort.order === 'asc' ? 'desc' : 'asc' })}
            >
              {sort.order === 'asc' ? '↑' : '↓'}
            </button>
          </div>
          <button
            type="button"
            className="button"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setFiltersOpen(!open)}
          >
            Filters{active > 0 ? ` (${active})` : ''}
          </button>
          {/* Its place is kept while there is nothing to clear: the row does not rewrap (and move the
              list down) as the first filter is typed; disabled keeps it out of the tab order. */}
          <button
            type="button"
            className={`link-button${active > 0 ? '' : ' is-place-kept'}`}
            onClick={clearFilters}
            {...(active > 0 ? {} : { 'aria-hidden': true, disabled: true })}
          >
            Clear
          </button>
        </div>
      </div>
      <SearchProblems fixedKeyNote={fixedKeyNote(fixed, filters)} />
      {open ? (
        <div id={panelId} className="filter-panel" role="region" aria-label="More filters">
          {chipGroups.map((group) => (
            <ChipGroup key={group.choiceKey} {...group} selected={filters.choices[group.choiceKey]} />
          ))}
          {pickLists
            // The key the list's scope fixes (a project's own list) is not offered.
            .filter((list) => list.choiceKey !== fixed)
            .map((list) => (
              <PickList key={list.choiceKey} {...list} selected={filters.choices[list.choiceKey]} />
            ))}
          <div className="date-filters">
            {DATE_KEYS.map((key) => (
              <label key={key} className="date-filter">
                {DATE_LABELS[key]}
                <input
                  type="date"
                  value={filters.dates[key]}
                  onChange={(event) => setDate(key, event.target.value)}
                />
              </label>
            ))}
            <label className="checkbox">
              <input
                type="checkbox"
                checked={filters.overdue}
                onChange={(event) => setOverdue(event.target.checked)}
              />
              Overdue only
            </label>
          </div>
        </div>
      ) : null}
    </div>
  );
});

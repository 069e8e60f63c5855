// The task list: a virtualized ARIA grid over the mirror's answer to the
// service's task-list query, with sortable column headers and full keyboard
// use (arrows, j/k, Page Up/Down, Home/End, Enter to open). Only the rows on
// screen exist in the DOM, so 100 000 tasks scroll like 100. Rows are selected
// to change at once (store/selection-store.ts): Shift+click, Ctrl/Cmd+click,
// Shift+J/K, Ctrl/Cmd+A; the bar over them (ui/bulk-bar.tsx) sends the change.
import { KindConsentNotice, useKindReadOnly } from '../ui/kind-consent';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type KeyboardEvent,
  type MouseEvent,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { errorType } from '../bridge/svc';
import { describeProblem } from '../problems/describe-problem';
import { useSession } from '../store/session-store';
import { type ListScope, navigate, openTask, selectTask, startCreating, useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import {
  clearSelection,
  everything,
  extendedTo,
  isEmpty,
  isSelected,
  NOTHING_SELECTED,
  selectedCount,
  setSelection,
  toggled,
  useSelection,
} from '../store/selection-store';
import { BulkBar } from '../ui/bulk-bar';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';
import { countWords } from '../vocabulary/task-words';
import { FilterBar } from './filter-bar';
import { gridVirtualizerOptions, RowSlots } from './grid-virtualizer';
import { GRID_SCROLL_TEST_ID, GRID_TEST_ID, registerListStep } from './list-focus';
import { activeFilterCount, type ListSort, scopeParent, type SortKey, taskListQuery } from './list-query';
import { clearFilters, sortBy, useList } from './list-store';
import { ROW_HEIGHT, rowElementId, TaskRowView } from './task-row';
import type { RowWindow } from './row-window';
import { listKey, type NextQueries, PAGE_SIZE, useRowWindow, useWindowVersion } from './use-row-window';
import { SaveViewButton } from './save-view-button';
import { blockStart, drawnAt, observeScaledRect, ScaledScrollElement, spacerHeight } from './tall-scroll';
import { spacerCap } from './spacer-cap';
import './task-list.css';

interface Column {
  key: string;
  label: string;
  sort: SortKey | null;
}

const COLUMNS: Column[] = [
  { key: 'mark', label: 'Sync', sort: null },
  { key: 'title', label: 'Title', sort: 'title' },
  { key: 'status', label: 'Status', sort: 'status_rank' },
  { key: 'priority', label: 'Priority', sort: 'priority_rank' },
  { key: 'assignee', label: 'Assignee', sort: 'assignee' },
  { key: 'due', label: 'Due', sort: 'due_date' },
  { key: 'project', label: 'Project', sort: 'project_id' },
  { key: 'tags', label: 'Tags', sort: null },
];

export function TaskList({ scope, title }: { scope: ListScope; title: string }) {
  const filters = useList((state) => state.filters);
  const sort = useList((state) => state.sort);
  const query = useMemo(() => taskListQuery(scope, filters, sort), [scope, filters, sort]);
  const parent = scopeParent(scope);
  // The store tells of new filters before React renders them: the list asks their rows at once.
  const nextQueries = useCallback<NextQueries>(
    (hear) =>
      useList.subscribe((state, before) => {
        if (state.filters !== before.filters || state.sort !== before.sort)
          hear(taskListQuery(scope, state.filters, state.sort));
      }),
    [scope],
  );
  const { window: rows, current, error } = useRowWindow(query, parent, nextQueries);
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const tasksLocked = useKindReadOnly('task');
  const failure = error ?? null;
  const problem = failure === null ? null : describeProblem(errorType(failure));

  return (
    <section className="task-list" aria-labelledby="task-list-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="task-list-title">{title}</h1>
          <CountLabel rows={rows} />
          <span className="spacer" />
          {scope.kind === 'project' ? (
            <button
              type="button"
              className="button"
              onClick={() => navigate({ kind: 'milestones', projectId: scope.projectId })}
            >
              Milestones
            </button>
          ) : null}
          {/* A view holds the service's filters: one filtered by parent could not be saved whole. */}
          {parent === undefined ? <SaveViewButton query={query} /> : null}
          <button
            type="button"
            className="button primary"
            onClick={startCreating}
            disabled={tasksLocked}
            title={
              readOnly
                ? 'This account can only read'
                : tasksLocked
                  ? 'This sign-in may not change tasks'
                  : 'New task (C)'
            }
            {...(tasksLocked && !readOnly ? { 'aria-describedby': 'consent-task' } : {})}
          >
            New task
          </button>
        </div>
        <KindConsentNotice kind="task" plural="tasks" />
        <FilterBar scope={scope} />
      </header>
      {problem ? <ListProblem problem={problem} /> : null}
      <ListBulkBar rows={rows} disabled={tasksLocked} />
      <TaskGrid
        rows={rows}
        query={query}
        parent={parent}
        current={current}
        title={title}
        sort={sort}
        queryKey={listKey(query, parent)}
        filtered={activeFilterCount(filters) > 0}
      />
    </section>
  );
}

function ListProblem({ problem }: { problem: ReturnType<typeof describeProblem> }) {
  return (
    <div className="inline-problem" role="alert">
      <strong>{problem.title}.</strong> {problem.detail}{' '}
      {problem.action === 'clear-filters' ? (
        <button type="button" className="link-button" onClick={clearFilters}>
          {problem.actionLabel}
        </button>
      ) : null}
    </div>
  );
}

/** The bar over the list's selection, its count following the window's (for "everything"). */
function ListBulkBar({ rows, disabled }: { rows: RowWindow | null; disabled: boolean }) {
  useWindowVersion(rows);
  const listSelection = useSelection((state) =>
    state.surface === 'list' ? state.selection : NOTHING_SELECTED,
  );
  const running = useSelection((state) => state.running);
  if (isEmpty(listSelection) && running === null) return null;
  const total = rows?.sizeKnown ? rows.size : null;
  return (
    <BulkBar selection={listSelection} count={selectedCount(listSelection, total)} disabled={disabled} />
  );
}

/** "1,234 tasks": follows the window (its count arrives after the first page). */
function CountLabel({ rows }: { rows: RowWindow | null }) {
  useWindowVersion(rows);
  const label =
    rows === null ? 'Loading…' : rows.sizeKnown ? countWords(rows.size, 'task', 'tasks') : 'Counting…';
  return (
    <span className="list-count" aria-live="polite" data-testid="list-count">
      {label}
    </span>
  );
}

/**
 * The grid itself: the only part that re-renders as pages arrive and as the
 * list scrolls, so a keystroke's answer redraws rows and nothing else.
 */
function TaskGrid({
  rows,
  query,
  parent,
  current,
  title,
  sort,
  queryKey,
  filtered,
}: {
  rows: RowWindow | null;
  query: TaskListQueryInput;
  parent: string | undefined;
  current: boolean;
  title: string;
  sort: ListSort;
  queryKey: string;
  filtered: boolean;
}) {
  useWindowVersion(rows);
  const projectNames = useWorkspace((state) => state.projectNames);
  const openTaskId = useView((state) => state.openTaskId);
  const firstSync = useSession((state) => state.status?.first_sync ?? null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const count = rows?.size ?? 0;
  const selection = useSelection((state) => (state.surface === 'list' ? state.selection : NOTHING_SELECTED));
  const idAt = (index: number) => rows?.rowAt(index)?.task_id;
  // The virtualizer works in the rows' own pixels; past the cap the body it scrolls is scaled (tall-scroll.ts).
  const [cap] = useState(() => spacerCap(window.location.search));
  const scaledRef = useRef<ScaledScrollElement | null>(null);
  const content = count * ROW_HEIGHT;
  scaledRef.current?.setContent(content);
  const scaledBody = (): ScaledScrollElement | null => {
    const element = scrollRef.current;
    if (element === null) return null;
    if (scaledRef.current?.element !== element) scaledRef.current = new ScaledScrollElement(element, cap);
    scaledRef.current.setContent(content);
    return scaledRef.current;
  };
  // TanStack Virtual hands back fresh functions each render; nothing here is memoized by the compiler anyway.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    ...gridVirtualizerOptions(count),
    // TanStack Virtual reads and writes the few properties ScaledScrollElement maps; an element's type is all it lacks.
    getScrollElement: () => scaledBody() as unknown as HTMLDivElement,
    observeElementRect: (instance, report) =>
      observeScaledRect(instance as unknown as { scrollElement: ScaledScrollElement | null }, report),
  });
  const items = virtualizer.getVirtualItems();
  const geometry = scaledRef.current?.geometry() ?? { content, viewport: 0, cap };
  // A new row count past the cap changes the scale: the rows shown stay shown (the scrollTop moves to them).
  const contentBefore = useRef(content);
  useLayoutEffect(() => {
    const before = contentBefore.current;
    contentBefore.current = content;
    if (before !== content && Math.max(before, content) > cap) {
      virtualizer.scrollToOffset(virtualizer.scrollOffset ?? 0);
    }
  }, [content, cap, virtualizer]);
  const slots = useRef<RowSlots | null>(null);
  slots.current ??= new RowSlots();
  const keys = slots.current.keys(items.map((item) => item.index));
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;
  const block = blockStart(firstIndex, ROW_HEIGHT);

  // The rows' element follows the scroll: placed after each render, and on each scroll in between,
  // since past the cap a scroll that draws no new row still moves the rows more than the spacer.
  const rowsRef = useRef<HTMLDivElement>(null);
  const placed = useRef({ block, transform: '' });
  const placeRows = useCallback((offset: number) => {
    const element = rowsRef.current;
    const scaled = scaledRef.current;
    if (element === null) return;
    const at = drawnAt(
      placed.current.block,
      offset,
      scaled?.geometry() ?? { content: 0, viewport: 0, cap: 1 },
    );
    const transform = `translateY(${at}px)`;
    if (transform === placed.current.transform) return;
    placed.current.transform = transform;
    element.style.transform = transform;
  }, []);
  useLayoutEffect(() => {
    placed.current.block = block;
    placeRows(virtualizer.scrollOffset ?? 0);
  });
  useEffect(() => {
    const element = scrollRef.current;
    if (element === null) return;
    const follow = () => {
      const scaled = scaledRef.current;
      if (scaled === null) return;
      const geometry = scaled.geometry();
      if (geometry.content > geometry.cap) placeRows(scaled.scrollTop);
    };
    element.addEventListener('scroll', follow, { passive: true });
    return () => element.removeEventListener('scroll', follow);
  }, [placeRows]);

  useEffect(() => {
    // Two pages of read-ahead: scrolling finds its rows already there.
    rows?.want(firstIndex, lastIndex, 2 * PAGE_SIZE);
  }, [rows, firstIndex, lastIndex]);

  // A new query starts at the top, with nothing selected: a selection is of one list. The scroll is
  // reset only when the list is scrolled (the virtualizer follows its offset from the scroll events):
  // scrollTo lays the page out at once, and in a keystroke's task that was a layout of the page the
  // key had just changed (23 of 50 keystrokes at 100 000 tasks, 0.7 ms each), laid out again for
  // its frame.
  useEffect(() => {
    setActive(0);
    if ((virtualizer.scrollOffset ?? 0) !== 0) scrollRef.current?.scrollTo({ top: 0 });
    if (useSelection.getState().surface === 'list') clearSelection();
  }, [queryKey, virtualizer]);

  const activeIndex = Math.min(active, Math.max(count - 1, 0));
  const activeRow = rows?.rowAt(activeIndex);
  useEffect(() => {
    clickState.current = { selection, activeIndex, idAt };
  });
  useEffect(() => {
    selectTask(activeRow?.task_id ?? null);
  }, [activeRow?.task_id]);

  // The latest of what a click needs, read when it happens: the callback stays one (rows are memoized on it).
  const clickState = useRef({ selection, activeIndex: 0, idAt });
  const onPick = useCallback((index: number, taskId: string, event: MouseEvent) => {
    const { selection: now, activeIndex: from, idAt: rowId } = clickState.current;
    gridRef.current?.focus({ preventScroll: true });
    if (event.shiftKey) {
      setSelection('list', extendedTo(now, from, index, rowId));
      setActive(index);
      return;
    }
    if (event.ctrlKey || event.metaKey) {
      setSelection('list', toggled(now, index, taskId));
      setActive(index);
      return;
    }
    // A plain click opens the task and starts a new selection from it.
    setSelection('list', { kind: 'ids', ids: new Set(), anchor: index });
    setActive(index);
    openTask(taskId);
  }, []);

  const moveTo = (index: number) => {
    const next = Math.max(0, Math.min(index, count - 1));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  // J and K pressed elsewhere on the page move the list too (command-palette/shortcuts.ts).
  // Registered after each render, so the step starts from the row active now.
  useEffect(() => registerListStep((step) => moveTo(activeIndex + step)));

  /** Shift+J/K, Shift+arrows: the active row moves and the selection runs from its anchor to it. */
  const extendTo = (index: number) => {
    const next = Math.max(0, Math.min(index, count - 1));
    setSelection('list', extendedTo(selection, activeIndex, next, idAt));
    setActive(next);
    virtualizer.scrollToIndex(next, { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Keys pressed on a column header's sort button are that button's.
    if (event.target !== event.currentTarget || event.altKey) return;
    // Ctrl+Home/End are a grid's first and last row: Home/End's own moves below (one cell a row).
    const gridEnds = event.key === 'Home' || event.key === 'End';
    if ((event.ctrlKey || event.metaKey) && !gridEnds) {
      if (event.key.toLowerCase() === 'a' && count > 0) {
        event.preventDefault();
        setSelection('list', everything(query, parent));
      }
      return;
    }
    if (event.shiftKey) {
      const by = { J: 1, ArrowDown: 1, K: -1, ArrowUp: -1 }[event.key];
      if (by !== undefined && count > 0) {
        event.preventDefault();
        extendTo(activeIndex + by);
        return;
      }
    }
    if (event.key === 'Escape' && !isEmpty(selection)) {
      // The page's Escape (closing the task) runs too: one key leaves both.
      clearSelection();
      return;
    }
    const pageRows = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 400) / ROW_HEIGHT) - 1);
    const moves: Record<string, () => void> = {
      ArrowDown: () => moveTo(activeIndex + 1),
      j: () => moveTo(activeIndex + 1),
      ArrowUp: () => moveTo(activeIndex - 1),
      k: () => moveTo(activeIndex - 1),
      PageDown: () => moveTo(activeIndex + pageRows),
      PageUp: () => moveTo(activeIndex - pageRows),
      Home: () => moveTo(0),
      End: () => moveTo(count - 1),
      Enter: () => {
        if (activeRow) openTask(activeRow.task_id);
      },
      o: () => {
        if (activeRow) openTask(activeRow.task_id);
      },
    };
    const move = moves[event.key];
    if (move) {
      event.preventDefault();
      move();
    }
  };

  const pageProblem = rows?.failure ? describeProblem(errorType(rows.failure)) : null;

  return (
    <>
      {pageProblem ? <ListProblem problem={pageProblem} /> : null}
      {/* The grid holds the focus and names its active row: arrows move it, the rows never take focus. */}
      <div
        className="grid"
        role="grid"
        aria-label={title}
        aria-rowcount={count + 1}
        aria-colcount={COLUMNS.length}
        aria-busy={!current}
        tabIndex={0}
        aria-multiselectable
        aria-activedescendant={count > 0 ? rowElementId(activeIndex) : undefined}
        onKeyDown={onKeyDown}
        data-testid={GRID_TEST_ID}
        ref={gridRef}
      >
        <div role="rowgroup" className="grid-head">
          <div role="row" aria-rowindex={1} className="task-row head-row">
            {COLUMNS.map((column) => (
              <div
                key={column.key}
                role="columnheader"
                className={`cell cell-${column.key}`}
                aria-sort={
                  column.sort !== null && sort.by === column.sort
                    ? sort.order === 'asc'
                      ? 'ascending'
                      : 'descending'
                    : undefined
                }
              >
                {column.sort === null ? (
                  <span className={column.key === 'mark' ? 'visually-hidden' : ''}>{column.label}</span>
                ) : (
                  <button
                    type="button"
                    className="sort-button"
                    onClick={() => sortBy(column.sort as SortKey)}
                  >
                    {column.label}
                    <span aria-hidden="true" className="sort-arrow">
                      {sort.by === column.sort ? (sort.order === 'asc' ? '▲' : '▼') : ''}
                    </span>
                  </button>
                )}
              </div>
            ))}
          </div>
        </div>
        <div ref={scrollRef} role="rowgroup" className="grid-body" data-testid={GRID_SCROLL_TEST_ID}>
          <div className="grid-spacer" style={{ height: `${spacerHeight(geometry)}px` }}>
            <div className="grid-rows" ref={rowsRef}>
              {items.map((item, i) => {
                const row = rows?.rowAt(item.index);
                return (
                  <TaskRowView
                    key={keys[i]}
                    index={item.index}
                    row={row}
                    start={item.start - block}
                    active={item.index === activeIndex}
                    selected={row !== undefined && isSelected(selection, row.task_id)}
                    open={row !== undefined && row.task_id === openTaskId}
                    projectName={row?.project_id ? (projectNames.get(row.project_id) ?? null) : null}
                    onPick={onPick}
                  />
                );
              })}
            </div>
          </div>
          {rows !== null && current && count === 0 ? (
            <div className="empty-state">
              {firstSync !== null ? (
                <p>Your tasks are on their way: the first sync is still running.</p>
              ) : filtered ? (
                <>
                  <p>No tasks match these filters.</p>
                  <button type="button" className="button" onClick={clearFilters}>
                    Clear filters
                  </button>
                </>
              ) : (
                <p>No tasks here yet.</p>
              )}
            </div>
          ) : null}
        </div>
      </div>
    </>
  );
}

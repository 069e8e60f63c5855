// Binds a task-list query to a RowWindow: the first page first (what the
// person waits for), the count right after, and a refresh when the mirror says
// tasks changed. The previous query's rows stay on show until the new ones
// arrive, and a slower answer to an older query never replaces a newer one.
// A query asked again since the mirror last changed (a Backspace) is answered
// from the list's recent answers, without a call, in the render that shows the
// key; another one leaves for main as soon as the person changed it (askAhead),
// before the page draws the key.
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { TaskListQueryInput } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { followChanges } from '../data/follow-changes';
import { LatestOnly, SUPERSEDED } from './latest-only';
import { RecentAnswers } from './recent-answers';
import { RowWindow } from './row-window';

/** Rows a page holds. */
export const PAGE_SIZE = 100;
/** Rows of a query's first page: a screenful, so a keystroke's answer is found and drawn quickly. */
export const FIRST_PAGE_SIZE = 40;
/** As many pages as ipc/screen-schemas.ts lets one call pass over (a copy: the renderer takes only types from main). */
const MAX_SKIPPED_PAGES = 40;
/** Read-ahead waits this long after a query's first page, so typing is never queued behind it. */
const AHEAD_DELAY_MS = 250;
/** The count waits this long after the first page, so typing does not queue a count per keystroke. */
const COUNT_DELAY_MS = 250;
/** Bursts of changes (a sync applying pages) refresh the list at most this often. */
const REFRESH_DELAY_MS = 150;
/**
 * Names this list to main: its next query stops a count of the previous one
 * still running (the person typed on), instead of main finishing it for nobody.
 */
const LIST = 'task-list';

export interface RowWindowState {
  window: RowWindow | null;
  /** The window shown belongs to the current query (false while a new query's first page is on its way). */
  current: boolean;
  error: unknown;
  /**
   * The list's next query, told as soon as the person changed it (a store's update, before
   * React renders it): its first page leaves for main then, so main answers while the page
   * draws the key, and the render of that query takes it instead of asking again.
   */
  askAhead: (query: TaskListQueryInput) => void;
}

const noWindow = () => () => {};

type FirstPageValue = Awaited<ReturnType<typeof invoke<'tasks:query'>>>;
type FirstPage = Promise<FirstPageValue | typeof SUPERSEDED>;

/**
 * A first page asked before the list rendered its query: the page the app opens on (asked while
 * the rest of the page is still starting), or a query the person just changed (askAhead).
 */
let prefetched: { key: string; page: FirstPage; value: FirstPageValue | null } | null = null;

function keepAsked(key: string, page: FirstPage): void {
  const entry: NonNullable<typeof prefetched> = { key, page, value: null };
  page.then(
    (value) => {
      if (value !== SUPERSEDED) entry.value = value;
    },
    // Not signed in yet, or it failed: the list asks again when it shows.
    () => undefined,
  );
  prefetched = entry;
}

/** Asks for a query's first page now; the list showing that query takes it instead of asking again. */
export function prefetchFirstPage(query: TaskListQueryInput): void {
  keepAsked(listKey(query), invoke('tasks:query', { query, limit: FIRST_PAGE_SIZE, list: LIST }));
}

/** The prefetched first page of `key` when it has already arrived (the list then draws it in its first render). */
function arrivedFirstPage(key: string): FirstPageValue | null {
  if (prefetched?.key !== key || prefetched.value === null) return null;
  const { value } = prefetched;
  prefetched = null;
  return value;
}

function createWindow(query: TaskListQueryInput, parent: string | undefined): RowWindow {
  return new RowWindow(
    async (after, limit, skip) => {
      const page = await invoke('tasks:query', {
        query,
        after,
        limit,
        list: LIST,
        ...(parent === undefined ? {} : { parent }),
        ...(skip > 0 ? { skip } : {}),
      });
      return { rows: page.rows, next: page.next, skipped: page.skipped };
    },
    {
      pageSize: PAGE_SIZE,
      firstPageSize: FIRST_PAGE_SIZE,
      maxSkip: MAX_SKIPPED_PAGES,
      aheadDelayMs: AHEAD_DELAY_MS,
    },
  );
}

/** The list's first-page calls: one in flight, a keystroke's query asked only once the one before answered. */
const firstPages = new LatestOnly();

/** Asks main for a query's first page through the list's one call in flight (firstPages). */
function askFirstPage(query: TaskListQueryInput, parent: string | undefined): FirstPage {
  return firstPages.run(() =>
    invoke('tasks:query', {
      query,
      limit: FIRST_PAGE_SIZE,
      list: LIST,
      ...(parent === undefined ? {} : { parent }),
    }),
  );
}

/** A query's first page, or SUPERSEDED when a newer query of the list came before it was asked. */
function firstPage(key: string, query: TaskListQueryInput, parent: string | undefined): FirstPage {
  if (prefetched?.key === key) {
    const { page } = prefetched;
    prefetched = null;
    return page.catch(() => askFirstPage(query, parent));
  }
  prefetched = null;
  return askFirstPage(query, parent);
}

/** What identifies a list's rows: its query, and the parent it is narrowed to (the app opens on a list without one). */
export function listKey(query: TaskListQueryInput, parent?: string): string {
  return JSON.stringify({ query, parent });
}

/** The rows of `query`, among `parent`'s sub-tasks when one is given (the list filtered by parent). */
export function useRowWindow(query: TaskListQueryInput, parent?: string): RowWindowState {
  const key = listKey(query, parent);
  const [state, setState] = useState<{ window: RowWindow | null; key: string | null; error: unknown }>(() => {
    // The page the app opens on may already be here: then the first render draws its rows.
    const arrived = arrivedFirstPage(key);
    if (arrived === null) return { window: null, key: null, error: null };
    const window = createWindow(query, parent);
    window.seed(arrived);
    return { window, key, error: null };
  });
  /**
   * The window a render was given (the page the app opens on, or a remembered answer), taken
   * over by the effect of its query instead of asking again; `counted` when its count came with it.
   */
  const adopted = useRef<{ window: RowWindow; counted: boolean } | null>(
    state.window === null ? null : { window: state.window, counted: false },
  );
  /** This list's recent answers (the list is remounted for another account, which starts afresh). */
  const recentRef = useRef<RecentAnswers | null>(null);
  recentRef.current ??= new RecentAnswers();
  const recent = recentRef.current;
  /** The query askAhead sent, and the moment of the mirror it was asked at (for recent.keep). */
  const askedAhead = useRef<{ key: string; at: number } | null>(null);
  /** The query whose effect ran last: the one on show, never asked ahead again. */
  const shownKey = useRef<string | null>(null);

  // A query asked since the mirror last changed (a Backspace) is drawn by the render that shows
  // the key: the rows change in the key's own frame, with no busy frame and no second render.
  if (state.key !== key && adopted.current === null) {
    const remembered = recent.get(key);
    if (remembered !== null) {
      const window = createWindow(query, parent);
      window.seed(remembered.page);
      if (remembered.count !== null) window.setCount(remembered.count);
      adopted.current = { window, counted: remembered.count !== null };
      setState({ window, key, error: null });
    }
  }

  const askAhead = useCallback(
    (next: TaskListQueryInput) => {
      const nextKey = listKey(next, parent);
      // A remembered query is drawn from memory by its render; one already asked is not asked twice.
      if (nextKey === shownKey.current || recent.has(nextKey) || prefetched?.key === nextKey) return;
      askedAhead.current = { key: nextKey, at: recent.now() };
      keepAsked(nextKey, askFirstPage(next, parent));
    },
    [parent, recent],
  );

  // Any change of the mirror may change any answer: the recent ones are dropped at once, and a
  // page asked ahead that no render took (the list showed another query) is not taken later.
  useEffect(
    () =>
      followChanges({ delayMs: 0 }, () => {
        recent.clear();
        if (askedAhead.current !== null && prefetched?.key === askedAhead.current.key) prefetched = null;
        askedAhead.current = null;
      }),
    [recent],
  );

  useEffect(() => {
    const { query: parsed, parent: within } = JSON.parse(key) as {
      query: TaskListQueryInput;
      parent?: string;
    };
    let cancelled = false;
    shownKey.current = key;
    const seeded = adopted.current;
    adopted.current = null;
    const window = seeded?.window ?? createWindow(parsed, within);
    /** Null when a later query or count of this list stopped it (the later one answers). */
    const recount = async (): Promise<number | null> => {
      const askedAt = recent.now();
      const { count } = await invoke('tasks:count', {
        query: parsed,
        list: LIST,
        ...(within === undefined ? {} : { parent: within }),
      });
      if (count !== null) recent.keepCount(key, askedAt, count);
      return count;
    };

    let countTimer: ReturnType<typeof setTimeout> | null = null;
    void (async () => {
      try {
        if (seeded?.counted) return;
        if (seeded === null) {
          // Asked ahead (the moment it left is when the mirror must not have changed since), or now.
          const askedAt = askedAhead.current?.key === key ? askedAhead.current.at : recent.now();
          askedAhead.current = null;
          const first = await firstPage(key, parsed, within);
          // Superseded only by the query of a later key, whose effect has already cancelled this one.
          if (cancelled || first === SUPERSEDED) return;
          recent.keep(key, askedAt, first);
          window.seed(first);
          setState({ window, key, error: null });
        }
        // Counting a broad search costs more than its first page: only once the typing paused.
        countTimer = setTimeout(() => {
          countTimer = null;
          recount()
            .then((count) => {
              if (!cancelled && count !== null) window.setCount(count);
            })
            .catch((error: unknown) => {
              if (!cancelled) setState((previous) => ({ ...previous, error }));
            });
        }, COUNT_DELAY_MS);
      } catch (error) {
        if (!cancelled) setState((previous) => ({ ...previous, key, error }));
      }
    })();

    const stop = followChanges({ collections: ['tasks'], delayMs: REFRESH_DELAY_MS }, () => {
      // The rows first: the count follows (a broad one takes a while) and corrects the length.
      window.refresh();
      void recount()
        .then((count) => {
          if (!cancelled && count !== null) window.setCount(count);
        })
        .catch(() => {
          // The next change or query tries again; the rows on show stay.
        });
    });
    return () => {
      cancelled = true;
      stop();
      if (countTimer !== null) clearTimeout(countTimer);
      window.dispose();
    };
  }, [key, recent]);

  const window = state.window;
  return {
    window,
    current: state.key === key && state.window !== null,
    error: state.key === key ? state.error : null,
    askAhead,
  };
}

/** Re-renders the caller whenever the window's rows or size change. */
export function useWindowVersion(window: RowWindow | null): number {
  return useSyncExternalStore(window?.subscribe ?? noWindow, () => window?.version ?? 0);
}

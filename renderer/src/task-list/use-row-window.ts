// Binds a task-list query to a RowWindow: the first page first (what the
// person waits for), the count right after, and a refresh when the mirror says
// tasks changed. The previous query's rows stay on show until the new ones
// arrive, and a slower answer to an older query never replaces a newer one.
// A query asked again since the mirror last changed (a Backspace) is answered
// from the list's recent answers, without a call; a keystroke's new query is
// asked as the filters change, before React renders it.
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
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
}

const noWindow = () => () => {};

type FirstPage = ReturnType<typeof invoke<'tasks:query'>>;
type FirstPageValue = Awaited<FirstPage>;

/**
 * A list's first page asked before the list's render asks it: the page the app opens on (asked
 * before React draws anything) and a keystroke's query (asked as the filters change, issue #28).
 * The render takes it instead of asking again. One list shows at a time, so one is held; the list
 * drops it when the mirror changes (asked again after the change) and when it closes (another
 * account's list must not take it).
 */
interface AskedAhead {
  key: string;
  /** The list's epoch it was asked at (RecentAnswers.now); null when asked before the list existed. */
  askedAt: number | null;
  page: Promise<FirstPageValue | typeof SUPERSEDED>;
  /** The page once it arrived: a list's first render can then draw it at once. */
  arrived: FirstPageValue | null;
}

let askedAhead: AskedAhead | null = null;

function askAhead(
  key: string,
  askedAt: number | null,
  query: TaskListQueryInput,
  parent: string | undefined,
): AskedAhead {
  const entry: AskedAhead = { key, askedAt, page: firstPage(query, parent), arrived: null };
  entry.page.then(
    (value) => {
      if (value !== SUPERSEDED) entry.arrived = value;
    },
    // Not signed in yet, or it failed: the list asks again when it takes it.
    () => undefined,
  );
  askedAhead = entry;
  return entry;
}

/** The first page asked ahead for `key`, taken (the render's effect asks nothing then). */
function takeAskedAhead(key: string): AskedAhead | null {
  const entry = askedAhead?.key === key ? askedAhead : null;
  askedAhead = null;
  return entry;
}

/**
 * Asks for a query's first page now; the list showing that query takes it instead of asking again.
 * Settles once it is answered, or has failed (the list asks again then).
 */
export function prefetchFirstPage(query: TaskListQueryInput): Promise<void> {
  return askAhead(listKey(query), null, query, undefined).page.then(
    () => undefined,
    () => undefined,
  );
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
      fetchEnd: async (before, limit, skip) => {
        const page = await invoke('tasks:query', {
          query,
          limit,
          list: LIST,
          from_end: true,
          ...(before === null ? {} : { before }),
          ...(parent === undefined ? {} : { parent }),
          ...(skip > 0 ? { skip } : {}),
        });
        return { rows: page.rows, after: page.after, before: page.before, skipped: page.skipped };
      },
    },
  );
}

/** The list's first-page calls: one in flight, a keystroke's query asked only once the one before answered. */
const firstPages = new LatestOnly();

/** A query's first page, or SUPERSEDED when a newer query of the list came before it was asked. */
function firstPage(
  query: TaskListQueryInput,
  parent: string | undefined,
): Promise<FirstPageValue | typeof SUPERSEDED> {
  return firstPages.run(() =>
    invoke('tasks:query', {
      query,
      limit: FIRST_PAGE_SIZE,
      list: LIST,
      ...(parent === undefined ? {} : { parent }),
    }),
  );
}

/**
 * Tells of each query the list is about to show, as its filters change and
 * before React renders them (a keystroke in the search box); returns the stop.
 */
export type NextQueries = (hear: (query: TaskListQueryInput) => void) => () => void;

/** What identifies a list's rows: its query, and the parent it is narrowed to (the app opens on a list without one). */
export function listKey(query: TaskListQueryInput, parent?: string): string {
  return JSON.stringify({ query, parent });
}

/** The rows of `query`, among `parent`'s sub-tasks when one is given (the list filtered by parent). */
export function useRowWindow(
  query: TaskListQueryInput,
  parent?: string,
  nextQueries?: NextQueries,
): RowWindowState {
  const key = listKey(query, parent);
  const [state, setState] = useState<{ window: RowWindow | null; key: string | null; error: unknown }>(() => {
    // The page the app opens on may already be here: then the first render draws its rows.
    const arrived = askedAhead?.key === key ? askedAhead.arrived : null;
    if (arrived === null) return { window: null, key: null, error: null };
    askedAhead = null;
    const window = createWindow(query, parent);
    window.seed(arrived);
    return { window, key, error: null };
  });
  /** The window the first render was given, taken over by the first effect instead of asking again. */
  const adopted = useRef(state.window);
  /** This list's recent answers (the list is remounted for another account, which starts afresh). */
  const recentRef = useRef<RecentAnswers | null>(null);
  recentRef.current ??= new RecentAnswers();
  const recent = recentRef.current;

  // Any change of the mirror may change any answer: the recent ones are dropped at once, and so is
  // a page asked ahead (its render's effect asks again, after the change).
  useEffect(
    () =>
      followChanges({ delayMs: 0 }, () => {
        recent.clear();
        askedAhead = null;
      }),
    [recent],
  );

  // A keystroke's query leaves for main as the filters change: React's render of the search box
  // and the list took 6-16 ms before the effect below asked it (at 100 000 tasks, issue #28).
  useEffect(() => {
    if (nextQueries === undefined) return;
    return nextQueries((next) => {
      const nextKey = listKey(next, parent);
      if (nextKey === askedAhead?.key) return;
      askedAhead = null;
      // Shown already, or answered from the recent answers without a call.
      if (nextKey === key || recent.has(nextKey)) return;
      askAhead(nextKey, recent.now(), next, parent);
    });
  }, [nextQueries, key, parent, recent]);

  // Left for another screen: main stops the list's count still running, which at a million tasks
  // steps on for seconds for nobody (a new query of the list stops it too, from the effect below).
  useEffect(
    () => () => {
      askedAhead = null;
      invoke('tasks:list-closed', { list: LIST }).catch(() => {
        // Signed out or closing: nothing is counted any more either.
      });
    },
    [],
  );

  useEffect(() => {
    const { query: parsed, parent: within } = JSON.parse(key) as {
      query: TaskListQueryInput;
      parent?: string;
    };
    let cancelled = false;
    const seeded = adopted.current;
    adopted.current = null;
    const asked = takeAskedAhead(key);
    const window = seeded ?? createWindow(parsed, within);
    // One count of this query in flight, the newest asked waiting: main stops a list's running
    // count when the next one comes, and while a bulk change's 50 000 edits were pushed at a
    // million tasks a change came every few seconds and a count took 0.5-20 s, so every count
    // was stopped by the next refresh's and none was ever shown.
    const counting = new LatestOnly();
    /** Null when a later query or count of this list stopped it (the later one answers). */
    const recount = async (): Promise<number | null> => {
      const answer = await counting.run(async () => {
        // Another query since (its own count asked): this one would stop that one in main.
        if (cancelled) return null;
        const askedAt = recent.now();
        const { count } = await invoke('tasks:count', {
          query: parsed,
          list: LIST,
          ...(within === undefined ? {} : { parent: within }),
        });
        if (count !== null) recent.keepCount(key, askedAt, count);
        return count;
      });
      return answer === SUPERSEDED ? null : answer;
    };

    let countTimer: ReturnType<typeof setTimeout> | null = null;
    void (async () => {
      try {
        if (seeded === null) {
          const remembered = recent.get(key);
          if (remembered !== null) {
            window.seed(remembered.page);
            if (remembered.count !== null) window.setCount(remembered.count);
            setState({ window, key, error: null });
            if (remembered.count !== null) return;
          } else {
            const askedAt = asked?.askedAt ?? recent.now();
            const again = () => firstPage(parsed, within);
            // Failed ahead (the app opening before sign-in): asked again, its error shown if it fails again.
            let first = await (asked === null ? again() : asked.page.catch(again));
            // Asked ahead but superseded by a later ask while the filters came back to it: asked again.
            if (!cancelled && first === SUPERSEDED && asked !== null) first = await again();
            // Superseded only by the query of a later key, whose effect has already cancelled this one.
            if (cancelled || first === SUPERSEDED) return;
            recent.keep(key, askedAt, first);
            window.seed(first);
            setState({ window, key, error: null });
          }
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
  };
}

/** Re-renders the caller whenever the window's rows or size change. */
export function useWindowVersion(window: RowWindow | null): number {
  return useSyncExternalStore(window?.subscribe ?? noWindow, () => window?.version ?? 0);
}

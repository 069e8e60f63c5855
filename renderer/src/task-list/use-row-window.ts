// Binds a task-list query to a RowWindow: the first page first (what the
// person waits for), the count right after, and a refresh when the mirror says
// tasks changed. The previous query's rows stay on show until the new ones
// arrive, and a slower answer to an older query never replaces a newer one.
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { TaskListQueryInput } from '../../../main/ipc/screen-schemas';
import { invoke, subscribe } from '../bridge/svc';
import { RowWindow } from './row-window';

export const PAGE_SIZE = 250;
/** Bursts of changes (a sync applying pages) refresh the list at most this often. */
const REFRESH_DELAY_MS = 150;

export interface RowWindowState {
  window: RowWindow | null;
  /** The window shown belongs to the current query (false while a new query's first page is on its way). */
  current: boolean;
  error: unknown;
}

const noWindow = () => () => {};

export function useRowWindow(query: TaskListQueryInput): RowWindowState {
  const key = JSON.stringify(query);
  const [state, setState] = useState<{ window: RowWindow | null; key: string | null; error: unknown }>({
    window: null,
    key: null,
    error: null,
  });

  useEffect(() => {
    const parsed = JSON.parse(key) as TaskListQueryInput;
    let cancelled = false;
    const window = new RowWindow(
      async (after, limit) => {
        const page = await invoke('tasks:query', { query: parsed, after, limit });
        return { rows: page.rows, next: page.next };
      },
      { pageSize: PAGE_SIZE },
    );
    const recount = async (): Promise<number | null> =>
      (await invoke('tasks:query', { query: parsed, limit: 1, count: true })).count;

    void (async () => {
      try {
        const first = await invoke('tasks:query', { query: parsed, limit: PAGE_SIZE });
        if (cancelled) return;
        window.seed(first);
        setState({ window, key, error: null });
        const count = await recount();
        if (!cancelled && count !== null) window.setCount(count);
      } catch (error) {
        if (!cancelled) setState((previous) => ({ ...previous, key, error }));
      }
    })();

    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = subscribe('mirror:changed', (change) => {
      if (!change.collections.includes('tasks') || timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void recount()
          .then((count) => {
            if (!cancelled) window.refresh(count ?? undefined);
          })
          .catch(() => {
            // The next change or query tries again; the rows on show stay.
          });
      }, REFRESH_DELAY_MS);
    });
    return () => {
      cancelled = true;
      stop();
      if (timer !== null) clearTimeout(timer);
      window.dispose();
    };
  }, [key]);

  const window = state.window;
  useSyncExternalStore(window?.subscribe ?? noWindow, () => window?.version ?? 0);
  return {
    window,
    current: state.key === key && state.window !== null,
    error: state.key === key ? state.error : null,
  };
}

// What the page starts before React draws anything: the session and the first
// rows of the list the app opens on. Its modules are light (the stores and the
// bridge, none of React's DOM renderer or the screens), so that the page's entry
// can start it from its first imports (opening-start.ts).
import { startSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { taskListQuery } from '../task-list/list-query';
import { useList } from '../task-list/list-store';
import { prefetchFirstPage } from '../task-list/use-row-window';
import { loadDateFormats, loadLocaleDataAside } from '../vocabulary/date-formats';
import { ROW_DATE_FORMATS } from '../vocabulary/task-words';

/**
 * Asks for the session and the first rows of the list the app opens on, at
 * once and side by side: called before React draws anything, so the answers
 * no longer wait for the splash to be rendered, laid out and painted (a
 * component's effects run only after that). Meanwhile a worker loads the
 * locale's data, which the rows' first date formatter would otherwise load on
 * the page's thread, and the formatters are built once it has.
 * Returns what stops the session.
 */
export function startApp(): () => void {
  const { view } = useView.getState();
  if (view.kind === 'list') {
    const { filters, sort } = useList.getState();
    prefetchFirstPage(taskListQuery(view.scope, filters, sort));
  }
  const stop = startSession();
  let stopped = false;
  void loadLocaleDataAside().then(() => {
    if (!stopped) loadDateFormats(ROW_DATE_FORMATS);
  });
  return () => {
    stopped = true;
    stop();
  };
}

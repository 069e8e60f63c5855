// What the page starts before React draws anything: the session and the first
// rows of the list the app opens on. Its modules are light (the stores and the
// bridge, none of React's DOM renderer or the screens), so that the page's entry
// can start it from its first imports (opening-start.ts).
import { startSession, useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { taskListQuery } from '../task-list/list-query';
import { useList } from '../task-list/list-store';
import { prefetchFirstPage } from '../task-list/use-row-window';
import { loadDateFormats, loadLocaleDataAside } from '../vocabulary/date-formats';
import { ROW_DATE_FORMATS } from '../vocabulary/task-words';

/** The first rows asked by startApp, settled once answered or failed (none asked: settled). */
let firstRowsAnswered: Promise<void> = Promise.resolve();

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
    firstRowsAnswered = prefetchFirstPage(taskListQuery(view.scope, filters, sort));
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

/**
 * Settles once main has answered what the first screen draws (the session, so
 * the screen is known, and the first rows startApp asked), or after `deadlineMs`
 * when it is slow (an upgrade of the saved tasks: the splash then tells of it).
 * The page's entry waits for it before React's first render: drawn at once, that
 * render was the splash, laid out and committed while the answers waited behind
 * it, before the workspace came in a render of the answers' own (first rows
 * 20-45 ms sooner without it at 100 000 tasks, issue #28).
 */
export function openingAnswered(deadlineMs: number): Promise<void> {
  const sessionKnown = new Promise<void>((known) => {
    if (useSession.getState().phase !== 'starting') return known();
    const stop = useSession.subscribe((state) => {
      if (state.phase === 'starting') return;
      stop();
      known();
    });
  });
  return Promise.race([
    Promise.all([sessionKnown, firstRowsAnswered]).then(() => undefined),
    new Promise<void>((late) => setTimeout(late, deadlineMs)),
  ]);
}

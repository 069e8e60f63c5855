// A saved view's rows from the mirror, offline too: the task list's answer to
// the view's filters and sort (gaps.md: a view's rows are what `GET /v1/tasks`
// answers with them), read through the same query as the task list, so the
// equivalence test that holds the list to the service holds views to it too.
// A view whose filters this version does not know is not answered here: it is
// shown from the service's rows while online and said to be unavailable offline.
import { type ViewQuery, viewQueryOf } from '../../protocol/view';
import type { Mirror } from '../mirror';
import type { TaskListPage, TaskQueryOptions } from '../task-query/task-query';

export type ViewRows =
  | { available: true; page: TaskListPage }
  | { available: false; reason: 'no-such-view' | 'unknown-filters'; detail: string };

export function viewRows(mirror: Mirror, viewId: string, options: TaskQueryOptions): ViewRows {
  const view = mirror.writesOf('view')?.get(viewId);
  if (view === undefined)
    return { available: false, reason: 'no-such-view', detail: `view ${viewId} is not in the mirror` };
  const understood = viewQueryOf(view as ViewQuery);
  if ('unknown' in understood)
    return { available: false, reason: 'unknown-filters', detail: understood.unknown };
  return { available: true, page: mirror.tasks.query(understood.query, options) };
}

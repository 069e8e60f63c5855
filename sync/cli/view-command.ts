// `view list|rows|create|edit|delete`: the saved views the mirror holds (with
// their pins) and a view's rows computed from the mirror with its filters and
// sort, offline, as the app shows them; the writes are the collection
// command's, derived from the view's descriptor like every other kind's.
import type { ViewRows } from '../../db/read-models/view-rows';
import { viewRows } from '../../db/read-models/view-rows';
import { viewSidebar } from '../../db/read-models/view-sidebar';
import { EXIT, type ExitCode, UsageError } from './cli-usage';
import type { CliIo } from './cli-io';
import { type CollectionCommandSpec, collectionCommand } from './collection-command';
import { line, parseOptions, required, withMirror } from './mirror-commands';

/** Today as a UTC day, what `overdue` compares with. */
const today = () => new Date().toISOString().slice(0, 10);

/** The `view` command: its reads here, its writes the collection command's. */
export function viewCommand(spec: CollectionCommandSpec) {
  const writes = collectionCommand(spec);
  return async (args: readonly string[], io: CliIo): Promise<ExitCode> => {
    const [verb, ...rest] = args;
    if (verb === 'list') {
      const values = parseOptions('view list', rest, { db: { type: 'string' } });
      const file = required('view list', 'db', values.db);
      return withMirror('view list', file, true, (mirror) => {
        const { views, pins } = viewSidebar(mirror);
        for (const view of views) {
          const pin = pins.find((p) => p.view_id === view.view_id);
          line(io, { ...view, pin_id: pin?.pin_id ?? null, pin_position: pin?.position ?? null });
        }
        return EXIT.ok;
      });
    }
    if (verb === 'rows') {
      const values = parseOptions('view rows', rest, {
        db: { type: 'string' },
        view: { type: 'string' },
        limit: { type: 'string' },
      });
      const file = required('view rows', 'db', values.db);
      const viewId = required('view rows', 'view', values.view);
      const limit = values.limit === undefined ? 1000 : Number(values.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000)
        throw new UsageError('view rows: --limit is a whole number from 1 to 1000');
      return withMirror('view rows', file, true, (mirror) => {
        const me = mirror.identity.account().username ?? '';
        let answer: ViewRows;
        let after: string | null = null;
        let left = limit;
        do {
          answer = viewRows(mirror, viewId, { me, today: today(), after, limit: Math.min(left, 200) });
          if (!answer.available) {
            io.stderr(
              answer.reason === 'unknown-filters'
                ? `view rows: this view uses a filter this version does not know (${answer.detail}); its rows are the service's only: GET /v1/views/${viewId}/rows\n`
                : `view rows: ${answer.detail}; list the views with: view list --db ${file}\n`,
            );
            return answer.reason === 'unknown-filters' ? EXIT.failed : EXIT.usage;
          }
          for (const item of answer.page.items) line(io, item);
          left -= answer.page.items.length;
          after = answer.page.next;
        } while (after !== null && left > 0);
        return EXIT.ok;
      });
    }
    const { create, edit, delete: remove } = spec.verbs;
    if (verb === create || verb === edit || verb === remove) return writes(args, io);
    throw new UsageError(
      `view: give one of list, rows, ${create}, ${edit}, ${remove}${verb === undefined ? '' : `, not '${verb}'`}`,
    );
  };
}

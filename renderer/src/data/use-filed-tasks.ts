// The tasks filed under something (a section, sprint, goal or milestone) as the
// mirror holds them (`tasks:filed`), reloaded when tasks change. A thing not
// yet sent lists the tasks filed under its temporary id too.
import type { InvokeInput } from '../../../ipc/contract';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { errorType } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { type BridgeRead, useBridgeRead } from './use-bridge-read';

export type FilingField = InvokeInput<'tasks:filed'>['field'];

export interface FiledTasks {
  /** Null while the first load runs. */
  rows: readonly TaskRow[] | null;
  /** More are filed than were read. */
  truncated: boolean;
  read: BridgeRead<{ rows: TaskRow[]; truncated: boolean }>;
}

/** The tasks whose `field` is one of `values`; `doing` names the load in a notice if it fails. */
export function useFiledTasks(
  field: FilingField,
  values: readonly string[],
  doing = 'Loading tasks',
): FiledTasks {
  const read = useBridgeRead('tasks:filed', values.length === 0 ? null : { field, values: [...values] }, {
    reloadOn: { collections: ['tasks'] },
    // The server's id replacing a temporary one keeps the rows shown until the new answer.
    keepPrevious: true,
    // Signing out stops every read; the sign-in screen says so, not a notice per list.
    onError: (error) => {
      if (errorType(error) !== 'signed-out') showProblem(error, doing);
    },
  });
  if (values.length === 0) return { rows: [], truncated: false, read };
  return { rows: read.data?.rows ?? null, truncated: read.data?.truncated ?? false, read };
}

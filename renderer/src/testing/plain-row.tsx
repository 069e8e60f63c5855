// A task's row as the list draws it at the top, not active, selected or open:
// for the tests of what a row itself does.
import type { TaskRow } from '../../../ipc/screen-schemas';
import { TaskRowView } from '../task-list/task-row';

export function PlainRow({ row }: { row: TaskRow }) {
  return (
    <TaskRowView
      index={0}
      row={row}
      start={0}
      active={false}
      selected={false}
      open={false}
      projectName={null}
      onPick={() => undefined}
    />
  );
}

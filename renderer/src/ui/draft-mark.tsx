// The mark of a task with a comment or reply written and not sent (a draft
// kept in the mirror): in its row of the list and in its editor's header.
import { useDrafts } from '../store/draft-store';
import './draft-mark.css';

export function DraftMark({ taskId }: { taskId: string }) {
  const drafted = useDrafts((state) => state.taskIds.has(taskId));
  return drafted ? (
    <span className="draft-mark" data-draft-mark="" title="A comment or reply here is not sent yet">
      Draft
    </span>
  ) : null;
}

// The problem on show, in words chosen by its type, with the action that helps.
import { describeProblem, type ProblemAction } from '../problems/describe-problem';
import { dismissNotice, syncNow, useSession } from '../store/session-store';
import { openTask } from '../store/view-store';
import { clearFilters } from '../task-list/list-store';
import { CloseButton } from '../ui/close-button';

function runAction(action: ProblemAction): void {
  dismissNotice();
  switch (action) {
    case 'sign-in-again':
    case 'use-another-token':
    case 'check-server-settings':
      useSession.setState({ addingAccount: true });
      break;
    case 'clear-filters':
      clearFilters();
      break;
    case 'back-to-list':
      openTask(null);
      break;
    case 'sync-now':
    case 'retry':
      void syncNow();
      break;
    case 'none':
      break;
  }
}

export function NoticeBanner() {
  const notice = useSession((state) => state.notice);
  if (notice === null) return null;
  const words = describeProblem(notice.type);
  return (
    <div className="notice" role="alert" data-problem-type={notice.type} key={notice.id}>
      <div className="notice-text">
        <strong>
          {notice.context ? `${notice.context}: ` : ''}
          {words.title}.
        </strong>{' '}
        {words.detail}
      </div>
      {words.actionLabel && words.action !== 'retry' ? (
        <button type="button" className="button" onClick={() => runAction(words.action)}>
          {words.actionLabel}
        </button>
      ) : null}
      <CloseButton label="Dismiss" onClick={dismissNotice} />
    </div>
  );
}

// Several signed-in accounts hold the task a link named: which one to open it in.
import { useSession } from '../store/session-store';
import { ModalDialog } from '../ui/modal-dialog';
import { cancelAccountChoice, chooseAccount, useLinkChoice } from '../store/link-requests';

export function LinkAccountChooser() {
  const choice = useLinkChoice((state) => state.choice);
  const accounts = useSession((state) => state.accounts);
  if (choice === null) return null;
  return (
    <ModalDialog
      className="confirm-dialog link-chooser"
      label="Open the task in which account?"
      testId="link-account-chooser"
      onClose={cancelAccountChoice}
    >
      <p>This task is in more than one of your accounts. Open it in:</p>
      <div className="confirm-actions link-chooser-accounts">
        {choice.accountIds.map((accountId, index) => {
          const account = accounts.find((candidate) => candidate.account_id === accountId);
          const label = account ? `${account.username} · ${account.org_name ?? account.org_id}` : accountId;
          return (
            <button
              key={accountId}
              type="button"
              className={index === 0 ? 'button primary' : 'button'}
              autoFocus={index === 0}
              onClick={() => chooseAccount(accountId)}
            >
              {label}
            </button>
          );
        })}
        <button type="button" className="button" onClick={cancelAccountChoice}>
          Cancel
        </button>
      </div>
    </ModalDialog>
  );
}

// A resource's changes the server refused, shown on the resource itself (a
// sprint, a board column): each in words with the server's answer, and a name
// taken (409) fixed in place by "Rename and retry"; the rest are reviewed in
// pending changes. Nothing the person wrote is lost.
import type { PendingChange } from '../../../ipc/outbox-schemas';
import { answerWords } from '../vocabulary/describe-operation';
import type { NameRules } from '../vocabulary/name-rules';
import { offersRename, RenameAndRetry } from './rename-and-retry';
import { openPendingChanges } from '../store/trust-store';
import './refused-changes.css';

export function RefusedChanges({
  changes,
  kind,
  currentName,
  rules,
  stacked = false,
}: {
  /** The refused changes of one resource. */
  changes: readonly PendingChange[];
  /** The kind's noun as the headline says it ("sprint": "This sprint was not created."). */
  kind: string;
  currentName: string;
  /** The kind's name rules; null for a kind without a name (a pin: a 409 is not fixed by renaming). */
  rules: NameRules | null;
  stacked?: boolean;
}) {
  if (changes.length === 0) return null;
  return (
    <div className={`refused-changes ${kind}-refusal`} role="alert" data-testid={`${kind}-refusal`}>
      {changes.map((change) => (
        <div key={change.op_id} className={`${kind}-refusal-item`}>
          <p>
            <strong>
              {change.kind === 'create'
                ? `This ${kind} was not created.`
                : change.kind === 'delete'
                  ? `This ${kind} was not deleted.`
                  : 'This change was not saved.'}
            </strong>{' '}
            {answerWords(change.last_answer, null, kind) ?? 'The server refused it.'}
          </p>
          {rules !== null && offersRename(change) ? (
            <RenameAndRetry change={change} currentName={currentName} rules={rules} stacked={stacked} />
          ) : (
            <button type="button" className="button" onClick={openPendingChanges}>
              Review in pending changes
            </button>
          )}
        </div>
      ))}
    </div>
  );
}

// The pending-changes inspector: every change not yet accepted by the server,
// in words, with its age, attempts, state and the server's last answer, and
// what the person can do about it (retry now, edit, discard, resolve).
import { useCallback, useEffect, useRef, useState } from 'react';
import type { PendingChange, WaitsOnView } from '../../../ipc/outbox-schemas';
import { ModalDialog } from '../ui/modal-dialog';
import { invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { describeProblem } from '../problems/describe-problem';
import { syncNow } from '../store/session-store';
import { announce, openTask } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { scopeNeighbours, sectionNameRules } from '../vocabulary/section-words';
import { SPRINT_NAME_RULES } from '../vocabulary/name-rules';
import { offersRename, RenameAndRetry } from '../ui/rename-and-retry';
import { agoWords, countWords, fieldWord, timeWords } from '../vocabulary/task-words';
import { heldBehindOf } from '../vocabulary/sync-mark-words';
import { answerWords, carriedNames, describeOperation, type NameOf } from '../vocabulary/describe-operation';
import {
  changeCountWords,
  changeStateWords,
  countChanges,
  waitingWords,
} from '../../../protocol/change-state-words';
import { inputTextOf, valueOfInput } from './field-input';
import { closePendingChanges, useTrust } from '../store/trust-store';
import { OUTBOX_MOVES } from '../data/use-outbox-changes';
import { KindConsentNotice, useMissingScope } from '../ui/kind-consent';
import { TrustDialog } from './trust-dialog';
import { ResolveButton } from '../ui/resolve-button';

/**
 * Names of what ids point at when a change carries none for one (db/referenced-names
 * names them from the mirror), from the workspace the sidebar already holds.
 */
function useNameOf(): NameOf {
  const workspace = useWorkspace((state) => state.workspace);
  return useCallback<NameOf>(
    (field, id) => {
      if (workspace === null) return null;
      switch (field) {
        case 'project_id':
          return workspace.projects.find((p) => p.project_id === id)?.name ?? null;
        case 'team_id':
          return workspace.teams.find((t) => t.team_id === id)?.name ?? null;
        case 'section_id':
          return workspace.sections.find((s) => s.section_id === id)?.name ?? null;
        case 'goal_id':
          return workspace.goals.find((g) => g.goal_id === id)?.name ?? null;
        case 'sprint_id':
          return workspace.teams.flatMap((t) => t.sprints).find((s) => s.sprint_id === id)?.name ?? null;
        default:
          return null;
      }
    },
    [workspace],
  );
}

function problemText(error: unknown, doing: string): string {
  const type =
    typeof error === 'object' && error !== null && typeof (error as { type?: unknown }).type === 'string'
      ? (error as { type: string }).type
      : 'internal';
  const message = error instanceof Error ? error.message : '';
  return `${doing}: ${describeProblem(type).title}${message ? ` (${message})` : ''}`;
}

function EditForm({
  change,
  onDone,
  onProblem,
}: {
  change: PendingChange;
  onDone: () => void;
  onProblem: (text: string) => void;
}) {
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(change.changes.map((c) => [c.field, inputTextOf(c.after)])),
  );
  const firstRef = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => firstRef.current?.focus(), []);
  const submit = async () => {
    const patch = Object.fromEntries(
      Object.entries(texts).map(([field, text]) => [field, valueOfInput(field, text)]),
    );
    try {
      await invoke('outbox:retry', { op_id: change.op_id, patch });
      announce('Change edited and sent again.');
      onDone();
    } catch (error) {
      onProblem(problemText(error, 'Saving the edit'));
    }
  };
  return (
    <form
      className="pending-edit"
      aria-label="Edit the change"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      {change.changes.map((c, index) => {
        const problem = change.last_answer?.errors.find((e) => e.field === c.field);
        return (
          <label key={c.field} className="pending-edit-field">
            <span>{fieldWord(c.field)}</span>
            {/* A comment's text or a description keeps its lines: typed in a text area. */}
            {c.field === 'content' || c.field === 'description' ? (
              <textarea
                ref={index === 0 ? firstRef : undefined}
                value={texts[c.field] ?? ''}
                rows={3}
                aria-invalid={problem !== undefined}
                onChange={(event) => setTexts((old) => ({ ...old, [c.field]: event.target.value }))}
              />
            ) : (
              <input
                ref={index === 0 ? firstRef : undefined}
                value={texts[c.field] ?? ''}
                aria-invalid={problem !== undefined}
                onChange={(event) => setTexts((old) => ({ ...old, [c.field]: event.target.value }))}
              />
            )}
            {/* An id typed here is told by the name the change carries for it (db/referenced-names). */}
            {c.field.endsWith('_id') && change.names?.[texts[c.field] ?? ''] !== undefined ? (
              <small className="muted">{change.names[texts[c.field] ?? '']}</small>
            ) : null}
            {problem !== undefined ? <small className="field-problem">{problem.message}</small> : null}
          </label>
        );
      })}
      <div className="pending-actions">
        <button type="submit" className="button primary">
          Save and retry
        </button>
        <button type="button" className="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/**
 * The references a new item was refused for (422), which it can be sent
 * without: the way on when the service will not take a section, sprint or
 * project the person can no longer use (a teammate's personal section, an
 * archived project). Values the person typed (a title) are fixed with Edit.
 */
export function refusedReferences(
  change: Pick<PendingChange, 'kind' | 'state' | 'changes' | 'last_answer'>,
): string[] {
  const answer = change.last_answer;
  if (change.kind !== 'create' || change.state !== 'failed' || answer?.status !== 422) return [];
  const carried = new Set(change.changes.filter((c) => c.after !== null).map((c) => c.field));
  const named = answer.errors.map((e) => e.field).filter((field): field is string => field !== null);
  return [...new Set(named)].filter((field) => field.endsWith('_id') && carried.has(field));
}

const AND_LIST = new Intl.ListFormat('en', { type: 'conjunction' });

/** "Send without section and sprint": what the button leaves out, in words. */
function sendWithoutWords(fields: readonly string[]): string {
  return `Send without ${AND_LIST.format(fields.map((field) => fieldWord(field).toLowerCase()))}`;
}

/**
 * A change's state as its chip says it: the words of its row's mark and the status bar;
 * held behind a change that stopped, what it waits for (it is not sent when the server can be reached).
 */
export function ChangeStateChip({
  change,
}: {
  change: Pick<PendingChange, 'state' | 'entity_type'> & { waits_on?: WaitsOnView | null };
}) {
  const waitsOn = change.waits_on ?? null;
  const words =
    waitsOn === null
      ? changeStateWords(change.state, `${change.entity_type ?? 'task'}s`)
      : waitingWords(heldBehindOf(waitsOn));
  return (
    <span
      className={`pending-state pending-state-${waitsOn === null ? change.state : 'waiting'}`}
      title={words.sentence}
    >
      {words.label}
    </span>
  );
}

/** The id of a change's row in the list, for a change held behind it to point at. */
function rowIdOf(opId: string): string {
  return `pending-op-${opId}`;
}

/**
 * Under a change held behind another: that change, its state, and a way to it. Retry and
 * discard stay on that change's own row, where its state and the server's answer are told.
 */
export function WaitsOnLine({ waitsOn, onShow }: { waitsOn: WaitsOnView; onShow: () => void }) {
  const what = `${waitsOn.entity_type}${waitsOn.name === null ? '' : ` ‘${waitsOn.name}’`}`;
  const change =
    waitsOn.kind === 'create'
      ? `the new ${what}`
      : waitsOn.kind === 'update'
        ? `an earlier change to ${what}`
        : `the delete of ${what}`;
  const state = changeStateWords(waitsOn.state, `${waitsOn.entity_type}s`).label;
  const action = waitsOn.state === 'conflict' ? 'resolve that change' : 'retry or discard that change';
  return (
    <p className="pending-waits-on">
      <span>{`Waits for ${change} (${state}): ${action}.`}</span>{' '}
      <button type="button" className="link-button" aria-controls={rowIdOf(waitsOn.op_id)} onClick={onShow}>
        Show that change
      </button>
    </p>
  );
}

/** Brings a change's row into view and focus (the row a waiting change is held behind). */
function showRow(opId: string): void {
  const row = document.getElementById(rowIdOf(opId));
  row?.scrollIntoView({ block: 'nearest' });
  row?.focus();
}

/** The inspector's count: the status bar's headline, from the same tally of the listed states. */
export function listedChangesWords(changes: readonly Pick<PendingChange, 'state'>[]): string {
  return changeCountWords(countChanges(changes.map((c) => c.state))).headline;
}

function ChangeItem({
  change,
  nameOf,
  onProblem,
}: {
  change: PendingChange;
  nameOf: NameOf;
  onProblem: (text: string) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState(false);
  // Blocked for want of a scope: sending it again is refused again until a sign-in grants it (the notice above).
  const missingScope = useMissingScope(change.entity_type ?? 'task');
  const awaitsConsent = change.state === 'blocked' && missingScope !== null;
  const answer = answerWords(change.last_answer, missingScope);
  const describedBy = `pending-${change.op_id}`;
  const retryable = change.state === 'failed' || change.state === 'blocked';
  // Held behind a stopped change, sending it again would only wait again: that change is the one to act on.
  const held = change.waits_on !== null;
  // Its values are not what is refused while it waits for a sign-in that grants the scope: no edit to offer.
  const editable = retryable && !awaitsConsent && change.kind !== 'delete' && change.changes.length > 0;
  const sections = useWorkspace((s) => s.workspace?.sections);
  const refused = refusedReferences(change);

  const retry = async () => {
    try {
      if (retryable) await invoke('outbox:retry', { op_id: change.op_id });
      else await syncNow();
      announce('Sending again.');
    } catch (error) {
      onProblem(problemText(error, 'Retrying'));
    }
  };
  const sendWithout = async () => {
    try {
      await invoke('outbox:retry', {
        op_id: change.op_id,
        patch: Object.fromEntries(refused.map((field) => [field, null])),
      });
      announce(`${sendWithoutWords(refused)}: sending again.`);
    } catch (error) {
      onProblem(problemText(error, 'Sending again'));
    }
  };
  const discard = async () => {
    try {
      await invoke('outbox:discard', { op_id: change.op_id });
      announce('Change discarded.');
    } catch (error) {
      setConfirming(false);
      onProblem(problemText(error, 'Discarding'));
    }
  };

  return (
    <li
      id={rowIdOf(change.op_id)}
      tabIndex={-1}
      className={`pending-item is-${change.state}`}
      data-op-id={change.op_id}
      data-state={change.state}
      {...(held ? { 'data-waits-on': change.waits_on?.op_id } : {})}
      aria-describedby={describedBy}
    >
      <div className="pending-what">
        <ChangeStateChip change={change} />
        <span className="pending-words">{describeOperation(change, carriedNames(change.names, nameOf))}</span>
      </div>
      <div className="pending-meta" id={describedBy}>
        <span title={timeWords(change.created_at)}>Made {agoWords(change.created_at)}</span>
        {/* Not tried yet (new, edited for a retry, or the read before it failed): "0 attempts" reads as failed. */}
        <span>
          {change.attempts === 0 ? 'Not sent yet' : countWords(change.attempts, 'attempt', 'attempts')}
        </span>
        {answer !== null ? <span className="pending-answer">{answer}</span> : null}
      </div>
      {change.waits_on !== null ? (
        <WaitsOnLine waitsOn={change.waits_on} onShow={() => showRow(change.waits_on?.op_id ?? '')} />
      ) : null}
      {confirming ? (
        <ModalDialog
          className="confirm-dialog"
          alert
          label="Discard this change?"
          onClose={() => setConfirming(false)}
        >
          <p>Discard this change? The {change.entity_type ?? 'task'} goes back to the server’s values.</p>
          <div className="confirm-actions">
            <button type="button" className="button danger" onClick={() => void discard()} autoFocus>
              Discard
            </button>
            <button type="button" className="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </ModalDialog>
      ) : null}
      {/* A sprint's or section's name taken (409): renamed right here, as on the sprint or the column. */}
      {(change.entity_type === 'sprint' || change.entity_type === 'section') && offersRename(change) ? (
        <RenameAndRetry
          change={change}
          currentName={change.entity_name ?? ''}
          rules={
            change.entity_type === 'sprint'
              ? SPRINT_NAME_RULES
              : sectionNameRules(scopeNeighbours(sections ?? [], change.entity_id))
          }
        />
      ) : null}
      {editing ? (
        <EditForm change={change} onDone={() => setEditing(false)} onProblem={onProblem} />
      ) : (
        <div className="pending-actions">
          {change.state === 'conflict' ? (
            <ResolveButton
              className="button primary"
              target={
                change.entity_type === undefined || change.entity_id === undefined
                  ? { task_id: change.task_id }
                  : { entity_type: change.entity_type, entity_id: change.entity_id }
              }
            />
          ) : change.state !== 'sending' && !awaitsConsent && !held ? (
            <button type="button" className="button" onClick={() => void retry()}>
              Retry now
            </button>
          ) : null}
          {refused.length > 0 && !held ? (
            <button type="button" className="button primary" onClick={() => void sendWithout()}>
              {sendWithoutWords(refused)}
            </button>
          ) : null}
          {editable ? (
            <button type="button" className="button" onClick={() => setEditing(true)}>
              Edit
            </button>
          ) : null}
          {change.task_id !== '' && change.task_title !== null && change.kind !== 'delete' ? (
            <button
              type="button"
              className="button"
              onClick={() => {
                closePendingChanges();
                openTask(change.task_id);
              }}
            >
              Open task
            </button>
          ) : null}
          {change.state !== 'sending' ? (
            <button type="button" className="button" onClick={() => setConfirming(true)}>
              Discard…
            </button>
          ) : null}
        </div>
      )}
    </li>
  );
}

function InspectorDialog() {
  const [problem, setProblem] = useState<string | null>(null);
  const nameOf = useNameOf();

  const changes =
    useBridgeRead('outbox:list', undefined, {
      reloadOn: OUTBOX_MOVES,
      onError: (error) => setProblem(problemText(error, 'Listing the changes')),
    }).data?.changes ?? null;

  return (
    <TrustDialog
      titleId="pending-changes-title"
      title="Pending changes"
      beside={<span className="muted">{changes === null ? '' : listedChangesWords(changes)}</span>}
      testId="pending-changes"
      focus="close"
      onClose={closePendingChanges}
      problem={problem}
    >
      {changes === null ? (
        <p className="muted trust-empty">Loading…</p>
      ) : changes.length === 0 ? (
        <p className="trust-empty">All changes are saved on the server.</p>
      ) : (
        <>
          {/* Each kind whose blocked changes wait for a sign-in that allows it: the same re-consent as its screens. */}
          {[...new Set(changes.filter((c) => c.state === 'blocked').map((c) => c.entity_type ?? 'task'))].map(
            (kind) => (
              <KindConsentNotice key={kind} kind={kind} plural={`${kind}s`} id={`pending-consent-${kind}`} />
            ),
          )}
          <ul className="pending-list" aria-label="Changes not yet saved on the server">
            {changes.map((change) => (
              <ChangeItem key={change.op_id} change={change} nameOf={nameOf} onProblem={setProblem} />
            ))}
          </ul>
        </>
      )}
    </TrustDialog>
  );
}

export function PendingChangesInspector() {
  const open = useTrust((state) => state.inspectorOpen);
  return open ? <InspectorDialog /> : null;
}

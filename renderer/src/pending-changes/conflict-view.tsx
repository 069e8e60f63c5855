// The three-way conflict view of a task, a comment or a section: for each field
// changed here and on the server, the value the edit started from, mine and
// theirs (text as a word or line diff against the start), and a choice per
// field; fields that merged cleanly are listed. A resource gone from the server
// offers its edit as a draft to copy, re-create, or drop. The choices are
// pushed against the server's current version.
import { useState } from 'react';
import type {
  ConflictChoice,
  ConflictFieldView,
  ConflictTarget,
  ConflictView,
} from '../../../ipc/outbox-schemas';
import { errorType, invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { describeProblem } from '../problems/describe-problem';
import { announce, openTask } from '../store/view-store';
import { fieldWord } from '../vocabulary/task-words';
import { carriedNames, type NameOf, valueText } from '../vocabulary/describe-operation';
import { inputTextOf, valueOfInput } from './field-input';
import { closeConflict, conflictKey, useTrust } from '../store/trust-store';
import { isTextField, textDiff, textOf } from './text-diff';
import { TrustDialog } from './trust-dialog';

type Choice = 'mine' | 'theirs' | 'value';

/** What the conflict is about, in words: its kind ("task", "comment", "section") and its name after the title. */
function subjectOf(view: ConflictView): { noun: string; name: string | null } {
  switch (view.entity_type) {
    case undefined:
    case 'task':
      return { noun: 'task', name: view.task_title };
    case 'comment':
      return {
        noun: 'comment',
        name: view.task_title === null ? 'a comment' : `a comment on ‘${view.task_title}’`,
      };
    case 'section':
      return { noun: 'section', name: view.entity_name ? `section ‘${view.entity_name}’` : 'a section' };
    default:
      return { noun: view.entity_type, name: view.entity_name ?? null };
  }
}

/** Long text is typed in a text area (a description, a comment). */
const LONG_TEXT_FIELDS: ReadonlySet<string> = new Set(['description', 'content']);

const MERGED_WORDS = {
  rebased: 'yours, sent on top of theirs',
  taken: 'theirs kept (you did not change it)',
  settled: 'the same on both sides',
} as const;

/** A text value marked against where the edit started: what was removed and added. */
function DiffText({ from, to, label }: { from: unknown; to: unknown; label: string }) {
  const parts = textDiff(textOf(from), textOf(to));
  if (parts.length === 0) return <span className="muted">(empty)</span>;
  return (
    <span className="diff-text" aria-label={label}>
      {parts.map((part, index) =>
        part.change === 'added' ? (
          <ins key={index}>{part.text}</ins>
        ) : part.change === 'removed' ? (
          <del key={index}>{part.text}</del>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </span>
  );
}

function FieldValue({
  field,
  value,
  from,
  side,
  nameOf,
}: {
  field: string;
  value: unknown;
  from?: unknown;
  side: string;
  nameOf: NameOf;
}) {
  if (isTextField(field) && from !== undefined) {
    return <DiffText from={from} to={value} label={`${side}: ${textOf(value) || 'empty'}`} />;
  }
  if (isTextField(field)) return <span className="diff-text">{textOf(value) || '(empty)'}</span>;
  return <span>{valueText(field, value, nameOf)}</span>;
}

function FieldConflict({
  conflict,
  choice,
  typed,
  onChoice,
  onTyped,
  nameOf,
}: {
  conflict: ConflictFieldView;
  choice: Choice;
  typed: string;
  onChoice: (choice: Choice) => void;
  onTyped: (text: string) => void;
  nameOf: NameOf;
}) {
  const name = `choice-${conflict.conflict_id}`;
  const label = fieldWord(conflict.field);
  return (
    <fieldset className="conflict-field" data-field={conflict.field}>
      <legend>{label}</legend>
      <div className="conflict-columns" role="group" aria-label={`${label}: the three versions`}>
        {[
          {
            mark: '',
            heading: 'When you started',
            side: 'When you started',
            value: conflict.base,
            from: undefined,
          },
          { mark: ' is-mine', heading: 'Yours', side: 'Yours', value: conflict.mine, from: conflict.base },
          {
            mark: ' is-theirs',
            heading: 'Theirs (on the server)',
            side: 'Theirs',
            value: conflict.theirs,
            from: conflict.base,
          },
        ].map(({ mark, heading, side, value, from }) => (
          <div key={side} className={`conflict-column${mark}`}>
            <h4>{heading}</h4>
            <FieldValue field={conflict.field} value={value} from={from} side={side} nameOf={nameOf} />
          </div>
        ))}
      </div>
      <div className="conflict-choices" role="radiogroup" aria-label={`Keep which ${label.toLowerCase()}`}>
        <label>
          <input type="radio" name={name} checked={choice === 'mine'} onChange={() => onChoice('mine')} />
          Keep mine
        </label>
        <label>
          <input type="radio" name={name} checked={choice === 'theirs'} onChange={() => onChoice('theirs')} />
          Take theirs
        </label>
        <label>
          <input type="radio" name={name} checked={choice === 'value'} onChange={() => onChoice('value')} />
          Type a new value
        </label>
        {choice === 'value' ? (
          LONG_TEXT_FIELDS.has(conflict.field) ? (
            <textarea
              aria-label={`New ${label.toLowerCase()}`}
              value={typed}
              rows={4}
              onChange={(event) => onTyped(event.target.value)}
            />
          ) : (
            <input
              aria-label={`New ${label.toLowerCase()}`}
              value={typed}
              onChange={(event) => onTyped(event.target.value)}
            />
          )
        ) : null}
        {/* An id typed here is told by its name when the view names it. */}
        {choice === 'value' && conflict.field.endsWith('_id') && nameOf(conflict.field, typed) !== null ? (
          <small className="muted">{nameOf(conflict.field, typed)}</small>
        ) : null}
      </div>
    </fieldset>
  );
}

function EditedConflict({ view, onProblem }: { view: ConflictView; onProblem: (text: string) => void }) {
  // Ids are shown by the names the view carries (db/referenced-names); one it cannot name, as is.
  const nameOf = carriedNames(view.names);
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(view.fields.map((c) => [c.conflict_id, 'mine'])),
  );
  const [typed, setTyped] = useState<Record<string, string>>(() =>
    Object.fromEntries(view.fields.map((c) => [c.conflict_id, inputTextOf(c.mine)])),
  );
  const apply = async () => {
    const list: ConflictChoice[] = view.fields.map((c) => {
      const choice = choices[c.conflict_id] ?? 'mine';
      return choice === 'value'
        ? { conflict_id: c.conflict_id, value: valueOfInput(c.field, typed[c.conflict_id] ?? '') }
        : { conflict_id: c.conflict_id, take: choice };
    });
    try {
      await invoke('conflicts:resolve', { op_id: view.op_id, choices: list });
      announce('Conflict resolved; your choices are being sent.');
      closeConflict();
    } catch (error) {
      onProblem(
        `${describeProblem(errorType(error)).title}${error instanceof Error ? `: ${error.message}` : ''}`,
      );
    }
  };
  return (
    <form
      className="conflict-body"
      onSubmit={(event) => {
        event.preventDefault();
        void apply();
      }}
    >
      <p className="conflict-intro">
        This {subjectOf(view).noun} changed on the server after you edited it. For each field changed on both
        sides, choose what to keep; your choice is sent against the server’s current version.
      </p>
      {view.fields.map((conflict) => (
        <FieldConflict
          key={conflict.conflict_id}
          conflict={conflict}
          choice={choices[conflict.conflict_id] ?? 'mine'}
          typed={typed[conflict.conflict_id] ?? ''}
          onChoice={(choice) => setChoices((old) => ({ ...old, [conflict.conflict_id]: choice }))}
          onTyped={(text) => setTyped((old) => ({ ...old, [conflict.conflict_id]: text }))}
          nameOf={nameOf}
        />
      ))}
      {view.merged.length > 0 ? (
        <section className="conflict-merged" aria-labelledby="merged-title">
          <h3 id="merged-title">Merged without a conflict</h3>
          <ul>
            {view.merged.map((merged) => (
              <li key={merged.field} data-field={merged.field}>
                <strong>{fieldWord(merged.field)}</strong>: {valueText(merged.field, merged.value, nameOf)} —{' '}
                <span className="muted">{MERGED_WORDS[merged.how]}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="pending-actions">
        <button type="submit" className="button primary">
          Apply choices
        </button>
        <button type="button" className="button" onClick={closeConflict}>
          Decide later
        </button>
      </div>
    </form>
  );
}

function draftText(view: ConflictView, draft: Record<string, unknown>): string {
  const lines = Object.entries(draft).map(([field, value]) => `${fieldWord(field)}: ${inputTextOf(value)}`);
  return view.entity_type === undefined || view.entity_type === 'task'
    ? [`Task: ${view.task_title ?? ''}`, ...lines].join('\n')
    : lines.join('\n');
}

function GoneConflict({ view, onProblem }: { view: ConflictView; onProblem: (text: string) => void }) {
  const gone = view.gone;
  const [copied, setCopied] = useState(false);
  if (gone === null) return null;
  const { noun } = subjectOf(view);
  const isTask = noun === 'task';
  const why =
    gone.status === 403
      ? `You can no longer see this ${noun} on the server (access was removed).`
      : `This ${noun} was deleted on the server, or moved where you can no longer see it.`;
  const resolve = async (take: 'mine' | 'theirs') => {
    try {
      const after = await invoke('conflicts:resolve', {
        op_id: view.op_id,
        choices: [{ conflict_id: gone.conflict_id, take }],
      });
      closeConflict();
      if (!isTask) {
        // A comment or section is not a task to open: its screens refresh on the change.
        announce(take === 'mine' ? `The ${noun} is re-created with your edit.` : 'Your edit was dropped.');
      } else if (take === 'mine' && after.task_id !== null) {
        announce('The task is re-created with your edit.');
        openTask(after.task_id);
      } else {
        announce('Your edit was dropped.');
        openTask(null);
      }
    } catch (error) {
      onProblem(describeProblem(errorType(error)).title);
    }
  };
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(draftText(view, { ...gone.task, ...gone.draft }));
      setCopied(true);
    } catch {
      onProblem('The draft could not be copied; select its text instead.');
    }
  };
  return (
    <div className="conflict-body">
      <p className="conflict-intro">
        {why} Your edit is kept here as a draft: re-create the {noun} with it, copy it, or drop it.
      </p>
      <section className="conflict-draft" aria-labelledby="draft-title">
        <h3 id="draft-title">Your edit</h3>
        <dl>
          {Object.entries(gone.draft).map(([field, value]) => (
            <div key={field} data-field={field}>
              <dt>{fieldWord(field)}</dt>
              <dd>
                {isTextField(field)
                  ? textOf(value) || '(empty)'
                  : valueText(field, value, carriedNames(view.names))}
              </dd>
            </div>
          ))}
        </dl>
        {gone.left_out.length > 0 ? (
          <ul className="conflict-left-out" aria-label="Left out of the re-created task">
            {gone.left_out.map((words) => (
              <li key={words}>{words}</li>
            ))}
          </ul>
        ) : null}
      </section>
      <div className="pending-actions">
        <button type="button" className="button primary" onClick={() => void resolve('mine')}>
          Re-create the {noun} with my edit
        </button>
        <button type="button" className="button" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy the draft'}
        </button>
        <button type="button" className="button danger-ghost" onClick={() => void resolve('theirs')}>
          Drop my edit
        </button>
      </div>
    </div>
  );
}

function ConflictDialog({ target }: { target: ConflictTarget }) {
  const [problem, setProblem] = useState<string | null>(null);

  const read = useBridgeRead('conflicts:get', target, {
    reloadOn: {
      // A task's view reloads when its task changed; another kind's on any change (its collection's are not per id).
      when: (change) =>
        !('task_id' in target) || change.task_ids === null || change.task_ids.includes(target.task_id),
      delayMs: 0,
    },
    // The conflict on show stays as it is while it is the same one (what the person chose stays).
    share: (old, found) => (old && found && old.op_id === found.op_id ? old : found),
    onError: (error) => setProblem(describeProblem(errorType(error)).title),
  });
  /** Undefined while the first read runs; null when there is no conflict. */
  const view = read.loading ? undefined : read.data;
  const subject = view ? subjectOf(view) : null;

  return (
    <TrustDialog
      className="conflict-dialog"
      titleId="conflict-title"
      title={
        <>
          {view?.kind === 'gone'
            ? `${subject?.noun === 'task' ? 'Task' : `The ${subject?.noun ?? 'change'}`} no longer on the server`
            : 'Resolve the conflict'}
          {subject?.name ? <span className="muted"> · {subject.name}</span> : null}
        </>
      }
      testId="conflict-view"
      focus="title"
      onClose={closeConflict}
      problem={problem}
    >
      {view === undefined ? (
        <p className="muted trust-empty">Loading…</p>
      ) : view === null ? (
        <p className="trust-empty">
          Nothing to resolve: this {'task_id' in target ? 'task' : target.entity_type} has no open conflict.
        </p>
      ) : view.kind === 'gone' ? (
        <GoneConflict view={view} onProblem={setProblem} />
      ) : (
        <EditedConflict view={view} onProblem={setProblem} />
      )}
    </TrustDialog>
  );
}

export function ConflictDialogHost() {
  const target = useTrust((state) => state.conflict);
  return target === null ? null : <ConflictDialog key={conflictKey(target)} target={target} />;
}

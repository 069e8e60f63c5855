// A team's triage: its tasks waiting for review (gaps.md "Team intake"), read
// from the mirror (the task list's own query: the team and review=pending), so
// it answers offline and shows an edit made here at once. Keyboard as Linear:
// J/K (or ↑/↓) move, 1 accepts (a form for where it goes), 2 declines, 3 marks
// a duplicate of another task, Enter opens it. Each is an edit through the
// outbox; what waits to be sent is listed below with its mark.
import { type KeyboardEvent, useEffect, useRef, useState } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { errorType } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { intakeRequest } from '../data/use-intake';
import { useOutboxChanges } from '../data/use-outbox-changes';
import { showProblem, useSession } from '../store/session-store';
import { announce, openTask, selectTask, useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { markOfState } from '../vocabulary/sync-mark-words';
import { dayWords, valueWord } from '../vocabulary/task-words';
import { AcceptForm } from './accept-form';
import { DuplicatePicker } from './duplicate-picker';
import { type AcceptChoices, acceptTask, declineTask, markDuplicate } from './triage-actions';
import './triage.css';

type Outcome = 'accepted' | 'declined' | 'duplicate';

/** A task triaged on this screen: said below the intake while its change waits to reach the server. */
interface Triaged {
  task_id: string;
  title: string;
  outcome: Outcome;
}

const OUTCOME_WORDS: Record<Outcome, string> = {
  accepted: 'Accepted',
  declined: 'Declined',
  duplicate: 'Marked duplicate',
};

type Dialog = { kind: 'accept'; row: TaskRow } | { kind: 'duplicate'; row: TaskRow } | null;

export function TriageView({ teamId }: { teamId: string }) {
  const teamName = useWorkspace((state) => state.teamNames.get(teamId)) ?? 'Team';
  const readOnly = useSession((state) => state.current?.read_only ?? false);
  const openTaskId = useView((state) => state.openTaskId);
  const read = useBridgeRead('tasks:query', intakeRequest(teamId), {
    reloadOn: { collections: ['tasks'], syncStatus: true },
    onError: (error) => {
      if (errorType(error) !== 'signed-out') showProblem(error, 'Reading the team’s intake');
    },
  });
  const rows = read.data?.rows ?? [];
  const [activeId, setActiveId] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const [triaged, setTriaged] = useState<readonly Triaged[]>([]);
  const listRef = useRef<HTMLUListElement>(null);
  const changes = useOutboxChanges(triaged.length > 0, 'Reading what waits to be sent');

  // The status keys act on the list's selected task elsewhere: here 1–3 triage, never set a status.
  useEffect(() => {
    selectTask(null);
    listRef.current?.focus();
  }, [teamId]);

  // The editor closed (Escape): the keys work on the intake again, as they do on the list after it.
  useEffect(() => {
    if (openTaskId === null && (document.activeElement === null || document.activeElement === document.body))
      listRef.current?.focus();
  }, [openTaskId]);

  // A triaged row hands the activity to its neighbour (done); one gone otherwise leaves it on the first.
  const found = rows.findIndex((r) => r.task_id === activeId);
  const activeIndex = found === -1 ? Math.min(0, rows.length - 1) : found;
  const active = rows[activeIndex];

  const done = (row: TaskRow, outcome: Outcome, words: string) => {
    setTriaged((previous) => [
      { task_id: row.task_id, title: row.title, outcome },
      ...previous.filter((t) => t.task_id !== row.task_id),
    ]);
    const next = rows[activeIndex + 1] ?? rows[activeIndex - 1];
    setActiveId(next?.task_id ?? null);
    announce(words);
    read.reload();
  };
  const run = (work: Promise<void>, row: TaskRow, outcome: Outcome, words: string, doing: string) => {
    work.then(
      () => done(row, outcome, words),
      (error: unknown) => showProblem(error, doing),
    );
  };
  const accept = (row: TaskRow, choices: AcceptChoices) => {
    setDialog(null);
    run(acceptTask(row, choices), row, 'accepted', `Accepted ‘${row.title}’.`, 'Accepting the task');
  };
  const decline = (row: TaskRow) =>
    run(declineTask(row), row, 'declined', `Declined ‘${row.title}’.`, 'Declining the task');
  const duplicate = (row: TaskRow, original: TaskRow) => {
    setDialog(null);
    run(
      markDuplicate(row, original),
      row,
      'duplicate',
      `Declined ‘${row.title}’ as a duplicate of ‘${original.title}’.`,
      'Marking the task a duplicate',
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const move = (to: number) => {
      const row = rows[Math.max(0, Math.min(rows.length - 1, to))];
      if (row !== undefined) setActiveId(row.task_id);
    };
    switch (event.key) {
      case 'j':
      case 'ArrowDown':
        move(activeIndex + 1);
        break;
      case 'k':
      case 'ArrowUp':
        move(activeIndex - 1);
        break;
      case 'Home':
        move(0);
        break;
      case 'End':
        move(rows.length - 1);
        break;
      case 'Enter':
      case 'o':
        if (active !== undefined) openTask(active.task_id);
        break;
      case '1':
        if (active !== undefined && !readOnly) setDialog({ kind: 'accept', row: active });
        break;
      case '2':
        if (active !== undefined && !readOnly) decline(active);
        break;
      case '3':
        if (active !== undefined && !readOnly) setDialog({ kind: 'duplicate', row: active });
        break;
      default:
        return;
    }
    // Taken here: the page's shortcuts (1–3 set a status there) must not act on it too.
    event.preventDefault();
  };

  const waiting = (taskId: string) => {
    const states = changes
      .filter((c) => c.task_id === taskId)
      .map((c) => c.state)
      .filter((s) => markOfState(s) !== null);
    // A stopped change (conflict, refused, blocked) says more than one merely waiting.
    return states.find((s) => markOfState(s) !== 'pending') ?? states[0] ?? null;
  };
  const shownTriaged = triaged.filter((t) => waiting(t.task_id) !== null);

  return (
    <section className="triage-view" aria-labelledby="triage-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="triage-title">{teamName}: triage</h1>
          <span className="list-count" data-testid="triage-count">
            {read.data === null ? '' : `${rows.length} waiting`}
          </span>
        </div>
        <p className="triage-keys muted">
          {readOnly
            ? 'This sign-in may only read: J/K move, Enter opens.'
            : '1 accept · 2 decline · 3 duplicate of… · J/K move · Enter open'}
        </p>
      </header>
      {read.data !== null && rows.length === 0 ? (
        <div className="empty-state">
          <p>Nothing waits for triage in {teamName}.</p>
        </div>
      ) : null}
      <ul
        ref={listRef}
        className="triage-list"
        role="listbox"
        aria-label={`Waiting for triage in ${teamName}`}
        tabIndex={0}
        aria-activedescendant={active ? `triage-row-${active.task_id}` : undefined}
        onKeyDown={onKeyDown}
      >
        {rows.map((row, index) => (
          <li
            key={row.task_id}
            id={`triage-row-${row.task_id}`}
            role="option"
            aria-selected={index === activeIndex}
            data-task-id={row.task_id}
            className={`triage-row${index === activeIndex ? ' is-active' : ''}${row.task_id === openTaskId ? ' is-open' : ''}`}
            onClick={() => setActiveId(row.task_id)}
            onDoubleClick={() => openTask(row.task_id)}
          >
            <span className="title-text">{row.title}</span>
            <span className="spacer" />
            {row.priority ? (
              <span className={`priority priority-${row.priority}`}>{valueWord(row.priority)}</span>
            ) : null}
            <span className="muted">{row.assignee ?? 'Unassigned'}</span>
            {row.created_at ? <span className="muted">{dayWords(row.created_at.slice(0, 10))}</span> : null}
            <SyncMarkBadge mark={row.sync_mark} waitsOn={row.waits_on} compact />
          </li>
        ))}
      </ul>
      {shownTriaged.length > 0 ? (
        <section className="triage-done" aria-label="Triaged here, not yet on the server">
          <h2>Triaged here</h2>
          <ul>
            {shownTriaged.map((t) => (
              <li key={t.task_id} data-task-id={t.task_id}>
                <button type="button" className="task-line" onClick={() => openTask(t.task_id)}>
                  <span className="title-text">{t.title}</span>
                  <span className="spacer" />
                  <span className="muted">{OUTCOME_WORDS[t.outcome]}</span>
                  <SyncMarkBadge mark={markOfState(waiting(t.task_id))} compact />
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {dialog?.kind === 'accept' ? (
        <AcceptForm
          row={dialog.row}
          teamId={teamId}
          onAccept={(choices) => accept(dialog.row, choices)}
          onClose={() => setDialog(null)}
        />
      ) : null}
      {dialog?.kind === 'duplicate' ? (
        <DuplicatePicker
          row={dialog.row}
          onChoose={(original) => duplicate(dialog.row, original)}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </section>
  );
}

// The sync log as the person reads it: newest first, searched by words (a task
// id, a status code, "412", "retry"), narrowed by level and kind, older pages
// on demand, and "copy diagnostics" for a support request (redacted in main).
import { useEffect, useState } from 'react';
import type { InvokeInput } from '../../../ipc/contract';
import type { SyncLogEntryView } from '../../../ipc/visibility-schemas';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { dateFormat } from '../vocabulary/date-formats';

type LogQuery = NonNullable<InvokeInput<'sync-log:query'>>;
type Level = NonNullable<LogQuery['levels']>[number];
type Kind = NonNullable<LogQuery['kinds']>[number];

const LEVELS: { value: Level | ''; label: string }[] = [
  { value: '', label: 'Any level' },
  { value: 'error', label: 'Errors' },
  { value: 'warn', label: 'Warnings' },
  { value: 'info', label: 'Information' },
  { value: 'debug', label: 'Details' },
];

const KINDS: { value: Kind | ''; label: string }[] = [
  { value: '', label: 'Anything' },
  { value: 'request', label: 'Requests and answers' },
  { value: 'retry', label: 'Retries' },
  { value: 'sync', label: 'Syncs' },
  { value: 'push', label: 'Sent changes' },
  { value: 'merge', label: 'Merges' },
  { value: 'conflict', label: 'Conflicts' },
  { value: 'changes', label: 'Remote changes' },
  { value: 'connectivity', label: 'Online / offline' },
  { value: 'auth', label: 'Sign-in' },
  { value: 'error', label: 'Errors' },
];

/** A log wants seconds: several lines often share a minute. */
const LOG_TIME = dateFormat({
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

function LogRow({ entry }: { entry: SyncLogEntryView }) {
  return (
    <li className={`log-entry log-${entry.level}`} data-testid="log-entry">
      <time dateTime={entry.at} className="log-time">
        {LOG_TIME().format(new Date(entry.at))}
      </time>
      <span className={`log-level log-level-${entry.level}`}>{entry.level}</span>
      <span className="log-kind">{entry.kind}</span>
      <span className="log-message">{entry.message}</span>
      {entry.request_id !== null ? <span className="log-request-id">request {entry.request_id}</span> : null}
    </li>
  );
}

/** A narrowing of the log by one of its values (its choices hold only those, '' for any). */
function LogFilter<V extends string>({
  label,
  value,
  choices,
  onChange,
}: {
  label: string;
  value: V;
  choices: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  return (
    <label>
      <span className="visually-hidden">{label}</span>
      <select value={value} onChange={(event) => onChange(event.target.value as V)}>
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

export function SyncLogView() {
  const [text, setText] = useState('');
  const [level, setLevel] = useState<Level | ''>('');
  const [kind, setKind] = useState<Kind | ''>('');
  const [entries, setEntries] = useState<SyncLogEntryView[] | null>(null);
  const [next, setNext] = useState<number | null>(null);
  const [copied, setCopied] = useState<string | null>(null);

  const query = (beforeId?: number): LogQuery => ({
    limit: 100,
    ...(text.trim() !== '' ? { text: text.trim() } : {}),
    ...(level !== '' ? { levels: [level] } : {}),
    ...(kind !== '' ? { kinds: [kind] } : {}),
    ...(beforeId !== undefined ? { before_id: beforeId } : {}),
  });

  useEffect(() => {
    let live = true;
    // Typing settles before asking: one query per pause, not per key.
    const timer = setTimeout(() => {
      invoke('sync-log:query', query()).then(
        (page) => {
          if (!live) return;
          setEntries(page.entries);
          setNext(page.next_before_id);
        },
        (error: unknown) => showProblem(error, 'Reading the sync log'),
      );
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the query is made of exactly these
  }, [text, level, kind]);

  const loadOlder = async () => {
    if (next === null) return;
    try {
      const page = await invoke('sync-log:query', query(next));
      setEntries((shown) => [...(shown ?? []), ...page.entries]);
      setNext(page.next_before_id);
    } catch (error) {
      showProblem(error, 'Reading the sync log');
    }
  };

  const copyDiagnostics = async () => {
    try {
      const report = await invoke('sync-log:copy-diagnostics');
      setCopied(
        report.copied
          ? 'Diagnostics copied: tokens, names and task text are left out.'
          : 'Diagnostics are ready, but could not be put on the clipboard.',
      );
    } catch (error) {
      showProblem(error, 'Copying diagnostics');
    }
  };

  return (
    <div className="sync-log-view">
      <form className="log-filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label className="log-search">
          <span className="visually-hidden">Search the sync log</span>
          <input
            type="search"
            placeholder="Search: a task id, 412, retry, offline…"
            value={text}
            onChange={(event) => setText(event.target.value)}
          />
        </label>
        <LogFilter label="Level" value={level} choices={LEVELS} onChange={setLevel} />
        <LogFilter label="Kind" value={kind} choices={KINDS} onChange={setKind} />
        <span className="spacer" />
        <button type="button" className="button" onClick={() => void copyDiagnostics()}>
          Copy diagnostics
        </button>
      </form>
      {copied !== null ? (
        <p className="hint" role="status">
          {copied}
        </p>
      ) : null}
      {entries === null ? (
        <p className="muted">Loading…</p>
      ) : entries.length === 0 ? (
        <p className="empty-state">
          {text.trim() !== '' ? `Nothing in the log matches “${text.trim()}”.` : 'The log is empty.'}
        </p>
      ) : (
        <ol className="log-entries" aria-label="Sync log, newest first">
          {entries.map((entry) => (
            <LogRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      {next !== null ? (
        <button type="button" className="button log-older" onClick={() => void loadOlder()}>
          Show older entries
        </button>
      ) : null}
    </div>
  );
}

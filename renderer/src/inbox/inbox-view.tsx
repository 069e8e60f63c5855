// The inbox: what happened to the person's work (assigned to them, mentions,
// comments and status changes on their tasks, conflicts and refusals of their
// edits, also of sections, sprints, goals, milestones and views), newest
// first, unread marked.
// Keyboard throughout: J/K (or the arrows) move, Enter opens the task (or the
// screen of another record) and marks it read, E marks it read, Shift+E marks all read.
import { type KeyboardEvent, useRef, useState } from 'react';
import type { InboxEntry } from '../../../ipc/inbox-schemas';
import { markInboxRead, useInbox } from '../data/use-inbox';
import { announce, navigate, openTask } from '../store/view-store';
import { placeOf } from './inbox-places';
import { inboxWhat } from './inbox-words';
import './inbox.css';

type Shown = 'all' | 'unread';

export function InboxView() {
  const inbox = useInbox();
  const [shown, setShown] = useState<Shown>('all');
  const [activeId, setActiveId] = useState<number | null>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const all = inbox.data?.entries ?? [];
  const entries = shown === 'unread' ? all.filter((e) => !e.read) : all;
  const unread = inbox.data?.unread ?? 0;
  const active = entries.find((e) => e.id === activeId) ?? entries[0] ?? null;

  const markRead = async (ids?: number[]) => {
    await markInboxRead(ids);
    inbox.reload();
  };
  const open = (entry: InboxEntry) => {
    if (entry.entity_type === 'task') openTask(entry.entity_id);
    else {
      const place = placeOf(entry);
      if (place !== null) navigate(place);
    }
    if (!entry.read) void markRead([entry.id]);
  };
  const markAll = () => {
    void markRead().then(() => announce('Inbox marked read'));
  };
  const move = (step: number) => {
    if (entries.length === 0) return;
    const at = active === null ? -1 : entries.indexOf(active);
    const next = entries[Math.min(entries.length - 1, Math.max(0, at + step))];
    if (next === undefined) return;
    setActiveId(next.id);
    listRef.current?.querySelector<HTMLElement>(`[data-entry-id="${next.id}"]`)?.scrollIntoView?.({
      block: 'nearest',
    });
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === 'j' || key === 'ArrowDown') move(1);
    else if (key === 'k' || key === 'ArrowUp') move(-1);
    else if (key === 'Enter' && active !== null) open(active);
    else if (key === 'E') markAll();
    else if (key === 'e' && active !== null) {
      if (!active.read) void markRead([active.id]);
    } else return;
    event.preventDefault();
  };

  return (
    <section className="inbox-view" aria-labelledby="inbox-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="inbox-title">Inbox</h1>
          <span className="list-count">{inbox.data === null ? 'Loading…' : `${unread} unread`}</span>
          <span className="spacer" />
          <div role="group" aria-label="Show">
            {(['all', 'unread'] as const).map((which) => (
              <button
                key={which}
                type="button"
                className="chip"
                aria-pressed={shown === which}
                onClick={() => setShown(which)}
              >
                {which === 'all' ? 'All' : 'Unread'}
              </button>
            ))}
          </div>
          <button
            type="button"
            className="button"
            onClick={markAll}
            disabled={unread === 0}
            aria-keyshortcuts="Shift+E"
          >
            Mark all read
          </button>
        </div>
      </header>
      {inbox.data !== null && entries.length === 0 ? (
        <p className="inbox-empty">
          {shown === 'unread' ? 'Nothing unread.' : 'Nothing has happened to your work yet.'}
        </p>
      ) : (
        <ul
          ref={listRef}
          className="inbox-list"
          role="listbox"
          aria-label="Inbox"
          tabIndex={0}
          aria-activedescendant={active === null ? undefined : `inbox-entry-${active.id}`}
          onKeyDown={onKeyDown}
        >
          {entries.map((entry) => (
            <li
              key={entry.id}
              id={`inbox-entry-${entry.id}`}
              data-entry-id={entry.id}
              role="option"
              aria-selected={entry === active}
              className={`inbox-entry${entry.read ? '' : ' is-unread'}${entry === active ? ' is-active' : ''}`}
              onClick={() => {
                setActiveId(entry.id);
                open(entry);
              }}
            >
              <span className="inbox-state">{entry.read ? 'Read' : 'Unread'}</span>
              <span className="inbox-title">{entry.title === '' ? 'A task' : entry.title}</span>
              <span className="inbox-what">{inboxWhat(entry)}</span>
              <time className="inbox-when" dateTime={entry.created_at}>
                {new Date(entry.created_at).toLocaleString()}
              </time>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

// The account panel: for each account, online or offline and why, syncing,
// last synced, its waiting changes by state (in the inspector's words), and per collection when it
// was last checked with the server and when a change last came from it, and
// what the last sync could not sync and why, and the items it left out; with sync now and pause or resume.
import { useEffect } from 'react';
import type { SyncStatus } from '../../../ipc/screen-schemas';
import type { SyncAccountView } from '../../../ipc/visibility-schemas';
import { describeProblem } from '../problems/describe-problem';
import { FirstSyncProgress } from '../ui/first-sync-progress';
import { syncNow, useSession } from '../store/session-store';
import { agoWords, countWords, timeWords } from '../vocabulary/task-words';
import { followOverview, setPaused, useSyncCenter } from './sync-center-store';
import {
  collectionOrder,
  collectionWord,
  leftOutWords,
  problemWords,
  unsyncedWords,
} from '../vocabulary/sync-words';
import { changeStateWords } from '../../../protocol/change-state-words';

/** A stable empty list, so a selector that finds nothing does not make a new one each time. */
const NOTHING_UNSYNCED: SyncStatus['unsynced'] = [];
const NOTHING_LEFT_OUT: SyncStatus['left_out'] = { items: [], more: 0 };

/**
 * The items the last sync left out because the server sent them in a form the
 * app cannot read (a teammate's, or a broken answer): how many, and which, so
 * a person knows what may be out of date without reading the sync log.
 */
export function LeftOutItems({ leftOut }: { leftOut: SyncStatus['left_out'] }) {
  const count = leftOut.items.length + leftOut.more;
  if (count === 0) return null;
  return (
    <div className="account-left-out" data-testid="account-left-out">
      <p>
        <strong className="sync-mark-failed">{countWords(count, 'item', 'items')} left out</strong> of the
        last sync: the server sent {count === 1 ? 'it' : 'them'} in a form the app cannot read.{' '}
        {count === 1 ? 'Its previous copy is' : 'Their previous copies are'} kept; the sync log names each.
      </p>
      <ul aria-label="Left out">
        {leftOut.items.map((item) => (
          <li key={`${item.collection}:${item.id ?? ''}:${item.field}`} title={item.reason}>
            {leftOutWords(item)}
          </li>
        ))}
      </ul>
      {leftOut.more > 0 ? <p className="muted">and {countWords(leftOut.more, 'more', 'more')}</p> : null}
    </div>
  );
}

function stateWords(
  account: SyncAccountView,
  paused: boolean,
): { label: string; tone: string; why: string | null } {
  const why = problemWords(account.problem, account.state === 'signed-out');
  if (account.state === 'signed-out')
    return { label: 'Signed out', tone: 'offline', why: 'sign in again to sync' };
  if (paused) return { label: 'Paused', tone: 'paused', why: 'no polling and no pushes until you resume' };
  if (account.connection === 'offline') return { label: 'Offline', tone: 'offline', why };
  if (account.syncing) return { label: 'Syncing…', tone: 'online', why: null };
  if (account.connection === 'online') return { label: 'Online', tone: 'online', why };
  return { label: 'Connecting…', tone: 'unknown', why };
}

function AccountCard({ account, paused }: { account: SyncAccountView; paused: boolean }) {
  const state = stateWords(account, paused);
  // The shown account's status carries the first sync's progress.
  const firstSync = useSession((s) =>
    account.current && s.status?.account_id === account.account_id ? s.status.first_sync : null,
  );
  // So does what its last full sync could not sync.
  const unsynced = useSession((s) =>
    account.current && s.status?.account_id === account.account_id ? s.status.unsynced : NOTHING_UNSYNCED,
  );
  const leftOut = useSession((s) =>
    account.current && s.status?.account_id === account.account_id ? s.status.left_out : NOTHING_LEFT_OUT,
  );
  const collections = [...account.collections].sort((a, b) => collectionOrder(a.collection, b.collection));
  return (
    <section
      className="account-card"
      aria-label={`Account ${account.label}`}
      data-testid="account-card"
      data-connection={account.connection}
    >
      <header className="account-card-head">
        <h2>{account.label}</h2>
        {account.current ? <span className="chip">shown</span> : null}
        {account.state === 'read-only' ? <span className="read-only-chip">Read-only</span> : null}
      </header>
      <p className={`account-state connection-${state.tone}`} data-testid="account-state">
        <span className="connection-dot" aria-hidden="true" />
        <strong>{state.label}</strong>
        {state.why !== null ? <span> — {state.why}</span> : null}
      </p>
      {firstSync !== null ? <FirstSyncProgress progress={firstSync} /> : null}
      {account.session_ends_at !== null && account.state !== 'signed-out' ? (
        <p className="muted account-session-ends" data-testid="account-session-ends">
          This sign-in ends at {timeWords(account.session_ends_at)}: its sign-in server gives no way to renew
          it. Sign in again then; your changes are kept.
        </p>
      ) : null}
      {account.problem !== null && account.state !== 'signed-out' ? (
        <p className="muted account-problem" title={account.problem.message}>
          {describeProblem(account.problem.type ?? account.problem.kind).detail}
        </p>
      ) : null}
      {unsynced.length > 0 ? (
        <div className="account-unsynced" data-testid="account-unsynced">
          <ul aria-label="Not synced">
            {unsynced.map((u) => (
              <li key={`${u.collection}:${u.scope}`} className="sync-mark-failed" title={u.message}>
                {unsyncedWords(u)}
              </li>
            ))}
          </ul>
          <p className="muted">Everything else is up to date; the app tries these again soon.</p>
        </div>
      ) : null}
      <LeftOutItems leftOut={leftOut} />
      <dl className="account-facts">
        <div>
          <dt>Last synced</dt>
          <dd title={timeWords(account.last_synced_at)}>{agoWords(account.last_synced_at)}</dd>
        </div>
        <div>
          <dt>{changeStateWords('queued').label}</dt>
          <dd data-testid="account-pending">{countWords(account.pending, 'change', 'changes')}</dd>
        </div>
        <div>
          <dt>Conflicts</dt>
          <dd className={account.conflicts > 0 ? 'sync-mark-conflict' : ''}>{account.conflicts}</dd>
        </div>
        <div>
          <dt>{changeStateWords('failed').label}</dt>
          <dd className={account.failed > 0 ? 'sync-mark-failed' : ''}>{account.failed}</dd>
        </div>
        <div>
          <dt>{changeStateWords('blocked').label}</dt>
          <dd className={account.blocked > 0 ? 'sync-mark-blocked' : ''}>{account.blocked}</dd>
        </div>
        <div>
          <dt>New on your tasks</dt>
          <dd>{account.unseen}</dd>
        </div>
      </dl>
      <table className="freshness-table" aria-label={`What ${account.label} holds, and how fresh`}>
        <thead>
          <tr>
            <th scope="col">Collection</th>
            <th scope="col">Last checked</th>
            <th scope="col">Last changed</th>
          </tr>
        </thead>
        <tbody>
          {collections.length === 0 ? (
            <tr>
              <td colSpan={3} className="muted">
                Nothing checked yet.
              </td>
            </tr>
          ) : (
            collections.map((c) => (
              <tr key={c.collection}>
                <th scope="row">{collectionWord(c.collection)}</th>
                <td title={timeWords(c.checked_at)}>{agoWords(c.checked_at)}</td>
                <td title={timeWords(c.changed_at)}>
                  {c.changed_at === null ? 'no change seen' : agoWords(c.changed_at)}
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </section>
  );
}

export function AccountPanel() {
  const overview = useSyncCenter((state) => state.overview);
  useEffect(() => followOverview(), []);
  if (overview === null) return <p className="muted">Loading…</p>;
  const { paused } = overview;
  return (
    <div className="account-panel">
      <div className="sync-actions">
        <button
          type="button"
          className="button primary"
          onClick={() => void syncNow()}
          disabled={paused || overview.accounts.every((a) => a.state === 'signed-out')}
        >
          Sync now
        </button>
        <button type="button" className="button" onClick={() => void setPaused(!paused)}>
          {paused ? 'Resume sync' : 'Pause sync'}
        </button>
        {paused ? (
          <span className="hint">
            Sync is paused: edits are kept on this computer and go out when you resume.
          </span>
        ) : null}
      </div>
      {overview.accounts.map((account) => (
        <AccountCard key={account.account_id} account={account} paused={paused} />
      ))}
    </div>
  );
}

// One account while the app runs: its mirror (open whether or not it is signed
// in, so its data and queued edits stay readable), and while signed in its
// session: the API client, the credentials and the sync engine. The account
// manager attaches and detaches sessions; the app reads and listens here.
import type { OutboxCounts } from '../../db/outbox/outbox-counts';
import type { ApiClient } from '../api/api-client';
import type { CredentialSource } from '../api/credentials';
import type { TokenKeeper } from '../auth/token-keeper';
import type { SyncIdentity } from '../events/sync-parts';
import type { SyncEvent, SyncEventListener } from '../events/sync-events';
import { errorInfo } from '../events/sync-error-info';
import type { SyncErrorInfo } from '../events/sync-events';
import type { AccountRecord, SignedOutReason } from './account-registry';
import { type AccountSyncState, initialAccountSyncState, reduceAccountSync } from './account-status';

/** What the accounts need of a mirror; db/'s Mirror has it. */
export interface AccountMirror {
  readonly outbox: {
    /** The tally of edits that wait (db/outbox/outbox-counts.ts). */
    counts(): OutboxCounts;
    /** Blocked (read-only) operations back to the queue; returns how many. */
    unblockAll(): number;
  };
  /** Bookkeeping of the task list's passes: a sync is the first until it completed once. */
  readonly passes: { state(collection: 'tasks'): { completedAt: string | null } | null };
  /** Records whose mirror this is. */
  readonly identity: { setAccount(account: { orgId: string; username: string }): void };
  close(): void;
}

/**
 * The sync engine as an account drives it; sync/engine's SyncEngine fits.
 * `start`/`stop` are the scheduler, when the engine has one.
 */
export interface AccountSyncEngine {
  pushOnce(options?: { signal?: AbortSignal }): Promise<unknown>;
  start?(): void;
  stop?(): Promise<void>;
  /** The operating system says the network came back. */
  networkChanged?(): void;
  /** The computer woke from sleep. */
  woke?(): void;
}

export interface SyncEngineInput<M extends AccountMirror> {
  accountId: string;
  mirror: M;
  api: ApiClient;
  me: SyncIdentity;
  /** A test token: the engine should not try to write. */
  readOnly: boolean;
  onEvent: SyncEventListener;
}

export type CreateSyncEngine<M extends AccountMirror, E extends AccountSyncEngine = AccountSyncEngine> = (
  input: SyncEngineInput<M>,
) => E;

/** What a signed-in account has on top of its mirror. */
export interface AccountSession<E extends AccountSyncEngine = AccountSyncEngine> {
  readonly api: ApiClient;
  readonly credentials: CredentialSource;
  /** The OAuth session; null for a pasted token. */
  readonly keeper: TokenKeeper | null;
  /** Null when the host gave no engine factory. */
  readonly engine: E | null;
}

/** `read-only`: signed in with a test token (reads work, writes are refused by the service). */
export type AccountState = 'signed-in' | 'read-only' | 'signed-out';

export interface AccountStatus {
  state: AccountState;
  /** Why, when signed out. */
  signed_out_reason: SignedOutReason | null;
  /** Edits the server has not accepted yet (queued, sending, in conflict, refused or blocked). */
  queued_edits: number;
}

export type AccountRuntimeEvent =
  | { type: 'status'; status: AccountStatus }
  | { type: 'sync'; event: SyncEvent }
  /** Pushing the queued edits after a sign-in failed (offline, refused...): they stay queued. */
  | { type: 'push-failed'; error: SyncErrorInfo };

export class AccountRuntime<
  M extends AccountMirror = AccountMirror,
  E extends AccountSyncEngine = AccountSyncEngine,
> {
  readonly id: string;
  readonly mirror: M;
  #record: AccountRecord;
  #session: AccountSession<E> | null = null;
  #pushing: Promise<void> | null = null;
  readonly #listeners = new Set<(event: AccountRuntimeEvent) => void>();
  #closed = false;
  readonly #now: () => number;
  #sync: AccountSyncState;

  constructor(record: AccountRecord, mirror: M, now: () => number = Date.now) {
    this.id = record.id;
    this.#record = record;
    this.mirror = mirror;
    this.#now = now;
    this.#sync = initialAccountSyncState(mirror.passes.state('tasks')?.completedAt ?? null);
  }

  /**
   * The account's sync status as its engine's events left it (account-status.ts):
   * the one source the status bar, the tray and the Sync screen show.
   */
  get sync(): AccountSyncState {
    return this.#sync;
  }

  /** The account as last saved in the registry. */
  get record(): AccountRecord {
    return this.#record;
  }

  /** Null while signed out. */
  get session(): AccountSession<E> | null {
    return this.#session;
  }

  get status(): AccountStatus {
    const signedIn = this.#session !== null;
    return {
      state: !signedIn ? 'signed-out' : this.#record.read_only ? 'read-only' : 'signed-in',
      signed_out_reason: signedIn ? null : this.#record.signed_out_reason,
      queued_edits: this.queuedEditCount(),
    };
  }

  queuedEditCount(): number {
    return this.#closed ? 0 : this.mirror.outbox.counts().unsettled;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: AccountRuntimeEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Sends the queued edits now. One push at a time: a call while one runs
   * joins it. Never rejects: a failure is reported as a `push-failed` event and
   * the edits stay queued for the engine's next push.
   */
  pushQueuedEdits(): Promise<void> {
    if (this.#pushing) return this.#pushing;
    const engine = this.#session?.engine;
    if (!engine) return Promise.resolve();
    const run = engine
      .pushOnce()
      .then(
        () => undefined,
        (error: unknown) => this.emit({ type: 'push-failed', error: errorInfo(error) }),
      )
      .finally(() => {
        this.#pushing = null;
        this.emitStatus();
      });
    this.#pushing = run;
    return run;
  }

  // ---- for the account manager --------------------------------------------------------

  /** @internal The registry changed this account. */
  setRecord(record: AccountRecord): void {
    this.#record = record;
  }

  /** @internal Starts a session (replacing any); the engine's scheduler starts when `startEngine`. */
  attach(session: AccountSession<E>, startEngine: boolean): void {
    this.#session = session;
    if (startEngine) session.engine?.start?.();
    this.emitStatus();
  }

  /** @internal Ends the session: stops the engine, lets requests under way finish, closes the client. */
  async detach(): Promise<void> {
    const session = this.#session;
    if (!session) return;
    this.#session = null;
    // Nothing is known of the connection until a session syncs again.
    this.#sync = { ...this.#sync, connection: 'unknown' };
    this.emitStatus();
    await session.engine?.stop?.();
    await this.#pushing;
    await session.api.close();
  }

  /** @internal Detaches and closes the mirror; the runtime is unusable afterwards. */
  async close(): Promise<void> {
    await this.detach();
    if (this.#closed) return;
    this.#closed = true;
    this.mirror.close();
    this.#listeners.clear();
  }

  /** @internal */
  emit(event: AccountRuntimeEvent): void {
    // Folded in before any listener runs, so every view reads the status the event left.
    if (event.type === 'sync' && !this.#closed) {
      this.#sync = reduceAccountSync(this.#sync, event.event, {
        nowMs: this.#now(),
        firstSyncPending: () => this.mirror.passes.state('tasks')?.completedAt == null,
      });
    }
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not break the account.
      }
    }
  }

  /** @internal */
  emitStatus(): void {
    if (!this.#closed) this.emit({ type: 'status', status: this.status });
  }
}

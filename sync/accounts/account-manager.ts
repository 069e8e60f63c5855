// The accounts a person is signed in to, side by side: each with its own
// mirror file, session and sync engine. Signs in (pasted token or browser:
// account-sign-in.ts), signs out (asking first when edits are queued), reacts
// to the service refusing a saved sign-in, and switches between accounts.
// Main's IPC handlers and the browser test host both drive the app's accounts
// through this class.
import { rm } from 'node:fs/promises';
import { openMirror as openMirrorFile } from '../../db/open-mirror';
import { ensureOwnerOnlyDirectory } from '../../db/files/owner-only-files';
import type { Mirror } from '../../db/mirror';
import type { SyncEngine } from '../engine/sync-engine';
import { AccountNotFoundError } from './account-errors';
import { type AccountRecord, AccountRegistry, type SignedOutReason } from './account-registry';
import {
  type AccountMirror,
  AccountRuntime,
  type AccountRuntimeEvent,
  type AccountSession,
  type AccountSyncEngine,
} from './account-runtime';
import {
  AccountSecrets,
  type AccountSecretStore,
  type SecretPersistence,
  secretKeysOf,
} from './account-secrets';
import { type AccountSessionOptions, AccountSessions } from './account-sessions';
import {
  AccountSignIn,
  type BrowserSignIn,
  type PastedTokenSignIn,
  type SignInOptions,
  type SignInResult,
} from './account-sign-in';
import { type AccountSummary, summarizeAccount } from './account-summary';
import { KnownSecrets } from './known-secrets';
import { type MirrorUpgrade, upgradeMirrorInWorker } from './mirror-upgrade';

export interface AccountManagerOptions<
  M extends AccountMirror = Mirror,
  E extends AccountSyncEngine = SyncEngine,
>
  extends AccountSessionOptions<M, E>, SignInOptions {
  /** App-data directory: the registry (accounts.json) and one mirror file per account. */
  directory: string;
  /** Where secrets are kept between runs (main: safeStorage; a Node host: a labelled file store). */
  secrets: AccountSecretStore;
  /** Opens (creating if needed) an account's mirror file; default db/'s openMirror. */
  openMirror?: (file: string) => Promise<M>;
  /** Start each engine's scheduler when its account signs in (the app: yes; tests driving syncs by hand: no). */
  startEngines?: boolean;
  /** The default openMirror's upgrade worker (see mirror-upgrade.ts); the app passes its build. */
  upgradeWorkerUrl?: URL;
  /** Told how the upgrade of an account's mirror goes, when an older app's file has migrations pending (default openMirror). */
  onMirrorUpgrade?: (accountId: string, upgrade: MirrorUpgrade) => void;
}

export type SignOutResult =
  /** Done: secrets forgotten; the account is listed signed out with its mirror kept (`kept_edits` > 0), or removed. */
  | { status: 'signed-out'; kept_edits: number; discarded_edits: number; removed: boolean }
  /** Nothing done yet: edits are queued, ask the person and call again with `keepQueuedEdits`. */
  | { status: 'queued-edits'; queued_edits: number };

export type AccountsEvent =
  | { type: 'accounts-changed'; accounts: AccountSummary[]; current_account_id: string | null }
  | { type: 'account-event'; account_id: string; event: Exclude<AccountRuntimeEvent, { type: 'status' }> };

export class AccountManager<M extends AccountMirror = Mirror, E extends AccountSyncEngine = SyncEngine> {
  readonly #options: AccountManagerOptions<M, E>;
  readonly #registry: AccountRegistry;
  readonly #secrets: AccountSecrets;
  readonly #known: KnownSecrets;
  readonly #runtimes = new Map<string, AccountRuntime<M, E>>();
  readonly #listeners = new Set<(event: AccountsEvent) => void>();
  /** The person paused syncing: engines of accounts signing in meanwhile do not start either. */
  #paused = false;
  /** Registry and session changes, one at a time (waiting for the browser happens outside). */
  #exclusive: Promise<unknown> = Promise.resolve();
  readonly #sessions: AccountSessions<M, E>;
  readonly #signIn: AccountSignIn<M, E>;

  private constructor(
    options: AccountManagerOptions<M, E>,
    registry: AccountRegistry,
    secrets: AccountSecrets,
    known: KnownSecrets,
  ) {
    this.#options = options;
    this.#registry = registry;
    this.#secrets = secrets;
    this.#known = known;
    this.#sessions = new AccountSessions(
      options,
      secrets,
      known,
      (runtime, session) => void this.#sessionRefused(runtime, session),
    );
    this.#signIn = new AccountSignIn({
      options,
      registry,
      secrets,
      known,
      sessions: this.#sessions,
      serialized: (work) => this.#serialized(work),
      runtimeOf: (accountId) => this.#runtimes.get(accountId),
      openRuntime: (record) => this.#openRuntime(record),
      discardRuntime: (runtime) => this.#discardRuntime(runtime),
      startsEngines: () => this.#startsEngines(),
      isPaused: () => this.#paused,
      announce: () => this.#announce(),
      summary: (record) => this.#summary(record),
      now: () => this.#now(),
    });
  }

  /**
   * Reads the registry, opens every account's mirror and resumes the sessions
   * whose secrets are still kept (without a network request: the first request
   * tells whether the service still accepts them). An account whose secret is
   * gone (kept for the last session only) is marked signed out.
   */
  static async open<M extends AccountMirror = Mirror, E extends AccountSyncEngine = SyncEngine>(
    options: AccountManagerOptions<M, E>,
  ): Promise<AccountManager<M, E>> {
    // Mirrors, logs and the account list: the person's alone (0700), also when an older version made it 0755.
    ensureOwnerOnlyDirectory(options.directory);
    const registry = await AccountRegistry.open(options.directory);
    const known = new KnownSecrets();
    const secrets = new AccountSecrets(
      options.secrets,
      registry.contents.keep_secrets_without_keychain,
      known,
    );
    const manager = new AccountManager(options, registry, secrets, known);
    for (const record of registry.accounts) {
      const runtime = await manager.#openRuntime(record);
      if (!record.signed_in) continue;
      const session = await manager.#sessions.resume(runtime);
      if (session) runtime.attach(session, manager.#startsEngines());
      else await manager.#markSignedOut(runtime, 'sign-in-not-kept');
    }
    return manager;
  }

  // ---- reading -----------------------------------------------------------------

  list(): AccountSummary[] {
    return this.#registry.accounts.map((record) => this.#summary(record));
  }

  current(): AccountSummary | null {
    const id = this.#registry.contents.current_account_id;
    const record = id === null ? undefined : this.#registry.account(id);
    return record ? this.#summary(record) : null;
  }

  /** The account's runtime (mirror, session, status); throws AccountNotFoundError. */
  runtime(accountId: string): AccountRuntime<M, E> {
    const runtime = this.#runtimes.get(accountId);
    if (!runtime) throw new AccountNotFoundError(accountId);
    return runtime;
  }

  currentRuntime(): AccountRuntime<M, E> | null {
    const id = this.#registry.contents.current_account_id;
    return id === null ? null : (this.#runtimes.get(id) ?? null);
  }

  /**
   * Every token this run has held, of every account, current and previous
   * (access, refresh, pasted): what the sync logs and diagnostics redact by
   * value. Live: ask again for each redaction.
   */
  knownSecrets(): readonly string[] {
    return this.#known.list();
  }

  /** Whether secrets outlive this run, and how (see SecretPersistence). The UI tells the person when `session-only`. */
  get secretPersistence(): SecretPersistence {
    return this.#secrets.persistence;
  }

  /** Adds a listener; returns the function that removes it. */
  subscribe(listener: (event: AccountsEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  // ---- pause ---------------------------------------------------------------------------

  isPaused(): boolean {
    return this.#paused;
  }

  /**
   * Stops every signed-in account's engine (polling and pushes; queued edits
   * stay queued), and accounts signing in until `resume` start paused.
   * Resolves when requests under way ended.
   */
  async pause(): Promise<void> {
    this.#paused = true;
    await Promise.all(this.#engines().map((engine) => engine.stop?.() ?? Promise.resolve()));
  }

  /** Starts the engines again (when this manager starts engines at all). */
  resume(): void {
    this.#paused = false;
    if (!this.#startsEngines()) return;
    for (const engine of this.#engines()) engine.start?.();
  }

  // ---- what the operating system says -------------------------------------------------

  /**
   * The network came back: every signed-in account's engine that is offline
   * checks the service at once, rather than at its next probe (up to a minute
   * later: sync/schedule/poll-policy.ts).
   */
  networkChanged(): void {
    for (const engine of this.#engines()) engine.networkChanged?.();
  }

  /** The computer woke from sleep: every signed-in account's engine catches up at once. */
  woke(): void {
    for (const engine of this.#engines()) engine.woke?.();
  }

  /** The engines of the accounts signed in now (a signed-out account has none). */
  #engines(): E[] {
    return [...this.#runtimes.values()].flatMap((runtime) => runtime.session?.engine ?? []);
  }

  #startsEngines(): boolean {
    return (this.#options.startEngines ?? false) && !this.#paused;
  }

  // ---- switching and settings -----------------------------------------------------

  async switchTo(accountId: string): Promise<AccountSummary> {
    return this.#serialized(async () => {
      if (!this.#registry.account(accountId)) throw new AccountNotFoundError(accountId);
      await this.#registry.update((draft) => {
        draft.current_account_id = accountId;
      });
      this.#announce();
      return this.#summary(this.#registry.account(accountId) as AccountRecord);
    });
  }

  /**
   * The person's choice where the OS offers no real keychain: keep secrets
   * between runs anyway (`true`), or for this session only. Moves the secrets
   * already kept accordingly.
   */
  async setKeepSecretsWithoutKeychain(keep: boolean): Promise<void> {
    await this.#serialized(async () => {
      await this.#registry.update((draft) => {
        draft.keep_secrets_without_keychain = keep;
      });
      await this.#secrets.setKeepWithoutKeychain(
        keep,
        this.#registry.accounts.flatMap((account) => secretKeysOf(account.id)),
      );
      this.#announce();
    });
  }

  // ---- signing in ------------------------------------------------------------------

  /**
   * Signs in with a pasted access token: recognised by its prefix
   * (PastedTokenRefusedError otherwise), then checked with `GET /v1/me`
   * (TokenNotAcceptedError when the service refuses it). A test token signs
   * in read-only. Signing in to an account already listed must be as the same
   * user in the same organization (AccountMismatchError); its queued edits
   * are then pushed.
   */
  async signInWithToken(input: PastedTokenSignIn): Promise<SignInResult> {
    return this.#signIn.withToken(input);
  }

  /**
   * Signs in through the system browser (OAuth with PKCE on a loopback
   * redirect), then asks `GET /v1/me` who signed in. Starting a sign-in
   * abandons one still waiting; cancelSignIn ends it. Rejects with the auth
   * layer's typed errors (access denied, timeout, cancelled...) and with
   * AccountMismatchError as signInWithToken. The refresh token is saved
   * before the session uses the access token.
   */
  async signInWithBrowser(input: BrowserSignIn): Promise<SignInResult> {
    return this.#signIn.withBrowser(input);
  }

  /** Ends the browser sign-in that is waiting, if any (it rejects as cancelled). */
  cancelSignIn(): void {
    this.#signIn.cancel();
  }

  // ---- signing out ------------------------------------------------------------------

  /**
   * Signs out: forgets the account's secrets. With edits still queued and no
   * `keepQueuedEdits` decision, does nothing and reports them, so the caller
   * can ask the person. `keepQueuedEdits: true` keeps the mirror and its
   * outbox for the next sign-in to the same account (the account stays listed,
   * signed out); otherwise the mirror is deleted with any edits and the account
   * is removed from the list. Also how a signed-out account is given up.
   */
  async signOut(accountId: string, options: { keepQueuedEdits?: boolean } = {}): Promise<SignOutResult> {
    return this.#serialized(async () => {
      const runtime = this.runtime(accountId);
      const queued = runtime.queuedEditCount();
      if (queued > 0 && options.keepQueuedEdits === undefined) {
        return { status: 'queued-edits', queued_edits: queued };
      }
      const keep = queued > 0 && options.keepQueuedEdits === true;
      await this.#forgetSecrets(runtime);
      if (keep) {
        await this.#markSignedOut(runtime, 'by-person');
        return { status: 'signed-out', kept_edits: queued, discarded_edits: 0, removed: false };
      }
      await runtime.close();
      this.#runtimes.delete(accountId);
      const mirrorPath = this.#registry.mirrorPath(runtime.record);
      await this.#registry.update((draft) => {
        draft.accounts = draft.accounts.filter((account) => account.id !== accountId);
        if (draft.current_account_id === accountId) draft.current_account_id = draft.accounts[0]?.id ?? null;
      });
      await removeMirrorFiles(mirrorPath);
      this.#announce();
      return { status: 'signed-out', kept_edits: 0, discarded_edits: queued, removed: true };
    });
  }

  /** Detaches every session and closes every mirror; secrets and the registry stay as they are. */
  async close(): Promise<void> {
    this.#signIn.cancel();
    await this.#serialized(async () => {
      for (const runtime of this.#runtimes.values()) await runtime.close();
      this.#runtimes.clear();
    });
    this.#listeners.clear();
  }

  // ---- inside ------------------------------------------------------------------------

  #serialized<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#exclusive.then(work);
    this.#exclusive = run.catch(() => undefined);
    return run;
  }

  async #openRuntime(record: AccountRecord): Promise<AccountRuntime<M, E>> {
    const { nativeBinding } = this.#options;
    // The default engine pulls in a worker whose connection commits every
    // poll: it checkpoints the log, so this (main-process) connection's edits
    // never stall on it.
    const checkpoints = this.#options.createEngine === undefined ? 'another-connection' : 'on-commit';
    const { upgradeWorkerUrl, onMirrorUpgrade } = this.#options;
    const binding = nativeBinding !== undefined ? { nativeBinding } : {};
    const open =
      this.#options.openMirror ??
      (async (file: string) => {
        // Off the main thread: an upgrade may take seconds at a million tasks.
        await upgradeMirrorInWorker(file, {
          ...binding,
          ...(upgradeWorkerUrl !== undefined ? { workerUrl: upgradeWorkerUrl } : {}),
          ...(onMirrorUpgrade !== undefined
            ? { onProgress: (upgrade: MirrorUpgrade) => onMirrorUpgrade(record.id, upgrade) }
            : {}),
        });
        return (await openMirrorFile(file, { checkpoints, ...binding })) as unknown as M;
      });
    const runtime = new AccountRuntime<M, E>(record, await open(this.#registry.mirrorPath(record)), () =>
      this.#now(),
    );
    runtime.subscribe((event) => {
      if (event.type === 'status') this.#announce();
      else this.#emit({ type: 'account-event', account_id: record.id, event });
      if (
        event.type === 'sync' &&
        event.event.type === 'read-only' &&
        event.event.reason === 'insufficient-scope'
      )
        void this.#scopeRefused(runtime, event.event.scope);
    });
    this.#runtimes.set(record.id, runtime);
    return runtime;
  }

  /** A sign-in's new account the registry did not take: nothing of it is left (runtime, mirror files, secrets). */
  async #discardRuntime(runtime: AccountRuntime<M, E>): Promise<void> {
    await runtime.close();
    this.#runtimes.delete(runtime.id);
    await removeMirrorFiles(this.#registry.mirrorPath(runtime.record));
    for (const key of secretKeysOf(runtime.id)) await this.#secrets.delete(key).catch(() => undefined);
  }

  /** The service refused the saved sign-in: signed out, mirror and outbox kept, the dead secret dropped. */
  #sessionRefused(runtime: AccountRuntime<M, E>, session: AccountSession<E>): Promise<void> {
    return this.#serialized(async () => {
      if (runtime.session !== session) return;
      // The dead secret first, so nothing that sees the account signed out can still find it.
      await Promise.all(secretKeysOf(runtime.id).map((key) => this.#secrets.delete(key))).catch(
        () => undefined,
      );
      await this.#markSignedOut(runtime, 'sign-in-refused');
    });
  }

  /** The service refused a write for want of `scope`: its kinds are read-only for this account until it signs in again. */
  #scopeRefused(runtime: AccountRuntime<M, E>, scope: string): Promise<void> {
    return this.#serialized(async () => {
      const refused = runtime.record.refused_scopes ?? [];
      if (refused.includes(scope) || !runtime.record.signed_in) return;
      const record: AccountRecord = { ...runtime.record, refused_scopes: [...refused, scope] };
      await this.#registry.putAccount(record);
      runtime.setRecord(record);
      this.#announce();
    });
  }

  async #markSignedOut(runtime: AccountRuntime<M, E>, reason: SignedOutReason): Promise<void> {
    const record: AccountRecord = { ...runtime.record, signed_in: false, signed_out_reason: reason };
    await this.#registry.putAccount(record);
    runtime.setRecord(record);
    await runtime.detach();
    this.#announce();
  }

  async #forgetSecrets(runtime: AccountRuntime<M, E>): Promise<void> {
    await runtime.session?.keeper?.forget();
    for (const key of secretKeysOf(runtime.id)) await this.#secrets.delete(key);
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #summary(record: AccountRecord): AccountSummary {
    return summarizeAccount(record, this.#registry, this.#runtimes.get(record.id));
  }

  #announce(): void {
    this.#emit({
      type: 'accounts-changed',
      accounts: this.list(),
      current_account_id: this.#registry.contents.current_account_id,
    });
  }

  #emit(event: AccountsEvent): void {
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not break the accounts.
      }
    }
  }
}

/** Deletes a mirror and the files SQLite keeps beside it. */
export async function removeMirrorFiles(file: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(`${file}${suffix}`, { force: true });
}

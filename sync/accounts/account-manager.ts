// The accounts a person is signed in to, side by side: each with its own
// mirror file, session and sync engine. Signs in (pasted token or browser),
// signs out (asking first when edits are queued), reacts to the service
// refusing a saved sign-in, and switches between accounts. Main's IPC handlers
// and the browser test host both drive the app's accounts through this class.
import { rm } from 'node:fs/promises';
import type { Dispatcher } from 'undici';
import { ApiClient, type ApiClientOptions } from '../api/api-client';
import type { CredentialSource } from '../api/credentials';
import {
  SignedOutError as ApiSignedOutError,
  type SignedOutReason as ApiSignedOutReason,
} from '../api/errors';
import { apiCredentials } from '../auth/api-credentials';
import { OAuthSignIn } from '../auth/oauth-flow';
import { classifyPastedToken } from '../auth/pasted-token';
import { refreshTokenKey } from '../auth/secret-store';
import type { TokenGrant } from '../auth/token-endpoint';
import { TokenKeeper } from '../auth/token-keeper';
import { openMirror as openMirrorFile } from '../../db/open-mirror';
import { ensureOwnerOnlyDirectory } from '../../db/owner-only-files';
import type { Mirror } from '../../db/mirror';
import { SyncEngine } from '../engine/sync-engine';
import { AccountMismatchError, AccountNotFoundError } from './account-errors';
import {
  type AccountIdentity,
  type AccountRecord,
  AccountRegistry,
  type SignedOutReason,
  type TokenKind,
  mirrorFileNameFor,
  newAccountId,
} from './account-registry';
import {
  type AccountMirror,
  AccountRuntime,
  type AccountRuntimeEvent,
  type AccountSession,
  type AccountState,
  type AccountSyncEngine,
  type CreateSyncEngine,
  type SyncEngineInput,
} from './account-runtime';
import {
  AccountSecrets,
  type AccountSecretStore,
  type SecretPersistence,
  accessTokenKey,
  secretKeysOf,
} from './account-secrets';
import { kindsNeeding, kindsNotGranted } from '../push/kinds/app-scopes';
import { identityOfToken } from './identity-check';
import { KnownSecrets } from './known-secrets';
import {
  type ServerSettings,
  assertTrustedServerPair,
  isTrustedServerPair,
  resolveServerSettings,
} from './server-settings';

export interface AccountManagerOptions<
  M extends AccountMirror = Mirror,
  E extends AccountSyncEngine = SyncEngine,
> {
  /** App-data directory: the registry (accounts.json) and one mirror file per account. */
  directory: string;
  /** Where secrets are kept between runs (main: safeStorage; a Node host: a labelled file store). */
  secrets: AccountSecretStore;
  /** Server settings used when a sign-in does not give its own (see serverDefaultsFromEnvironment). */
  defaults: Partial<ServerSettings>;
  /** Opens (creating if needed) an account's mirror file; default db/'s openMirror. */
  openMirror?: (file: string) => Promise<M>;
  /**
   * better-sqlite3's addon for the default openMirror and the default engine's
   * pull worker: the Electron app passes the build made for Electron
   * (main/native/sqlite-addon.ts); Node hosts leave it out.
   */
  nativeBinding?: string;
  /** The default engine's pull worker entry: a bundled app passes its built `.js` (see SyncEngineDeps). */
  pullWorkerUrl?: URL;
  /**
   * Builds a signed-in account's engine. Default: sync/engine's SyncEngine over
   * db/'s Mirror. `null`: sessions have no engine (nothing syncs).
   */
  createEngine?: CreateSyncEngine<M, E> | null;
  /** Start each engine's scheduler when its account signs in (the app: yes; tests driving syncs by hand: no). */
  startEngines?: boolean;
  /** Milliseconds since the epoch (token expiry); default Date.now. */
  now?: () => number;
  /** undici dispatcher for every request (tests); default each client's own pool. */
  dispatcher?: Dispatcher;
  /** Extra API client settings for every account (tests shorten retries). */
  client?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'credentials' | 'dispatcher'>>;
  /** How long a browser sign-in waits; default 5 minutes (the flow's). */
  signInTimeoutMs?: number;
}

/** One account as the UI lists it: plain data, fit for IPC. */
export interface AccountSummary {
  id: string;
  base_url: string;
  auth_url: string;
  client_id: string;
  identity: AccountIdentity;
  token_kind: TokenKind;
  read_only: boolean;
  /** Absolute path of the account's mirror file. */
  mirror_path: string;
  state: AccountState;
  signed_out_reason: SignedOutReason | null;
  queued_edits: number;
  current: boolean;
  /** When the sign-in lapses and must be done again (no refresh token was given); null when it renews itself. */
  session_ends_at: string | null;
  /**
   * The writable kinds (outbox entity types) this sign-in may not write, each
   * with the scope it lacks: not granted at sign-in, or refused since by the
   * service. Signing in again asks for the scopes anew.
   */
  read_only_kinds: ReadOnlyKind[];
}

/** A kind this account may read but not write, and the scope that would let it. */
export interface ReadOnlyKind {
  kind: string;
  scope: string;
}

export interface SignInResult {
  account: AccountSummary;
  /** False when this signed in again to an account already listed. */
  created: boolean;
  /** Edits that were waiting for this sign-in; they are being pushed now. */
  queued_edits: number;
}

export interface PastedTokenSignIn {
  /** What the person pasted (surrounding space and a `Bearer ` label are forgiven). */
  token: string;
  /** Sign in again to this account (it must be the same user and organization). */
  accountId?: string;
  /** Server settings over the defaults (ignored with `accountId`: the account keeps its own). */
  server?: Partial<ServerSettings>;
}

export interface BrowserSignIn {
  /** Opens the consent page: main passes shell.openExternal, tests a scripted browser. */
  openUrl: (url: string) => void | Promise<void>;
  accountId?: string;
  server?: Partial<ServerSettings>;
  signal?: AbortSignal;
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
  #attempt: OAuthSignIn | null = null;

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
      const session = await manager.#resumeSession(runtime);
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
    await Promise.all(
      [...this.#runtimes.values()].map((r) => r.session?.engine?.stop?.() ?? Promise.resolve()),
    );
  }

  /** Starts the engines again (when this manager starts engines at all). */
  resume(): void {
    this.#paused = false;
    if (!this.#startsEngines()) return;
    for (const runtime of this.#runtimes.values()) runtime.session?.engine?.start?.();
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
    const pasted = classifyPastedToken(input.token);
    this.#known.note(pasted.token);
    const server = this.#serverFor(input.accountId, input.server);
    const identity = await identityOfToken(server.base_url, pasted.token, this.#clientOptions());
    return this.#serialized(async () => {
      const { record, created } = this.#target(input.accountId, server, identity);
      await this.#secrets.set(accessTokenKey(record.id), pasted.token);
      await this.#secrets.delete(refreshTokenKey(record.id));
      const kind: TokenKind = pasted.kind;
      return this.#completeSignIn(record, created, kind, pasted.readOnly, (runtime) =>
        this.#pastedTokenSession(runtime, pasted.token),
      );
    });
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
    const server = this.#serverFor(input.accountId, input.server);
    this.#attempt?.cancel();
    const attempt = new OAuthSignIn(
      { authUrl: server.auth_url, clientId: server.client_id },
      {
        openUrl: input.openUrl,
        ...(this.#options.now ? { now: this.#options.now } : {}),
        ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
        ...(this.#options.signInTimeoutMs !== undefined
          ? { attemptTimeoutMs: this.#options.signInTimeoutMs }
          : {}),
      },
    );
    this.#attempt = attempt;
    // The browser's page waits for all of it: "Signed in" only once the account is kept.
    const finish = async (grant: TokenGrant): Promise<SignInResult> => {
      this.#known.note(grant.accessToken);
      this.#known.note(grant.refreshToken);
      const me = await identityOfToken(server.base_url, grant.accessToken, this.#clientOptions());
      // Our service's token answer names the organization (gaps.md); a standard server's does not, /v1/me may.
      const identity: AccountIdentity = { ...me, org_id: grant.orgId ?? me.org_id };
      return this.#serialized(async () => {
        const { record, created } = this.#target(input.accountId, server, identity);
        await this.#secrets.delete(accessTokenKey(record.id));
        const keeper = await TokenKeeper.fromGrant(grant, this.#keeperOptions(record));
        // Without a refresh token the session lasts as long as the access token (RFC 6749 5.1): the screens say until when.
        const endsAt =
          grant.refreshToken === null && grant.expiresAt !== null
            ? new Date(grant.expiresAt).toISOString()
            : null;
        return this.#completeSignIn(
          record,
          created,
          'oauth',
          false,
          (runtime) => this.#oauthSession(runtime, keeper),
          endsAt,
          grant.scopes,
        );
      });
    };
    try {
      return await attempt.signIn({ ...(input.signal ? { signal: input.signal } : {}), finish });
    } finally {
      if (this.#attempt === attempt) this.#attempt = null;
    }
  }

  /** Ends the browser sign-in that is waiting, if any (it rejects as cancelled). */
  cancelSignIn(): void {
    this.#attempt?.cancel();
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
    this.#attempt?.cancel();
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

  #serverFor(accountId: string | undefined, overrides: Partial<ServerSettings> | undefined): ServerSettings {
    if (accountId !== undefined) {
      const record = this.#registry.account(accountId);
      if (!record) throw new AccountNotFoundError(accountId);
      // accounts.json is only a file: a pair edited in it is held to the same rule as one typed.
      assertTrustedServerPair(record);
      return { base_url: record.base_url, auth_url: record.auth_url, client_id: record.client_id };
    }
    return resolveServerSettings(this.#options.defaults, overrides);
  }

  /**
   * Which account a sign-in is for: the one asked for (it must be the same
   * user and organization), else one already listed for the same server, user
   * and organization, else a new one.
   */
  #target(
    accountId: string | undefined,
    server: ServerSettings,
    identity: AccountIdentity,
  ): { record: AccountRecord; created: boolean } {
    if (accountId !== undefined) {
      const record = this.#registry.account(accountId);
      if (!record) throw new AccountNotFoundError(accountId);
      if (record.identity.user_id !== identity.user_id || record.identity.org_id !== identity.org_id) {
        throw new AccountMismatchError(
          record.id,
          { username: record.identity.username, org_id: record.identity.org_id },
          { username: identity.username, org_id: identity.org_id },
        );
      }
      return { record: { ...record, identity: { ...record.identity, ...identity } }, created: false };
    }
    const existing = this.#registry.accounts.find(
      (account) =>
        account.base_url === server.base_url &&
        account.identity.user_id === identity.user_id &&
        account.identity.org_id === identity.org_id,
    );
    if (existing) {
      return {
        record: { ...existing, ...server, identity: { ...existing.identity, ...identity } },
        created: false,
      };
    }
    const id = newAccountId();
    return {
      record: {
        id,
        ...server,
        identity,
        token_kind: 'live',
        read_only: false,
        mirror_file: mirrorFileNameFor(id),
        signed_in: false,
        signed_out_reason: null,
        created_at: new Date(this.#now()).toISOString(),
        signed_in_at: null,
      },
      created: true,
    };
  }

  async #completeSignIn(
    target: AccountRecord,
    created: boolean,
    kind: TokenKind,
    readOnly: boolean,
    makeSession: (runtime: AccountRuntime<M, E>) => AccountSession<E>,
    sessionEndsAt: string | null = null,
    grantedScopes: readonly string[] | null = null,
  ): Promise<SignInResult> {
    const record: AccountRecord = {
      ...target,
      session_ends_at: sessionEndsAt,
      // A new sign-in asked for the scopes anew: what was refused before is known again only by a new refusal.
      granted_scopes: grantedScopes === null ? null : [...grantedScopes],
      refused_scopes: [],
      token_kind: kind,
      read_only: readOnly,
      signed_in: true,
      signed_out_reason: null,
      signed_in_at: new Date(this.#now()).toISOString(),
    };
    // The mirror first: an account is only listed once its mirror could be opened.
    let runtime = this.#runtimes.get(record.id);
    const opened = runtime === undefined;
    runtime ??= await this.#openRuntime(record);
    try {
      await this.#registry.update((draft) => {
        const index = draft.accounts.findIndex((account) => account.id === record.id);
        if (index === -1) draft.accounts.push(record);
        else draft.accounts[index] = record;
        if (created || draft.current_account_id === null) draft.current_account_id = record.id;
      });
    } catch (error) {
      if (opened) {
        await runtime.close();
        this.#runtimes.delete(record.id);
        await removeMirrorFiles(this.#registry.mirrorPath(record));
        for (const key of secretKeysOf(record.id)) await this.#secrets.delete(key).catch(() => undefined);
      }
      throw error;
    }
    await runtime.detach();
    runtime.setRecord(record);
    if (record.identity.org_id !== null) {
      runtime.mirror.identity.setAccount({
        orgId: record.identity.org_id,
        username: record.identity.username,
      });
    }
    // Edits blocked while the account could not write may go now.
    if (!readOnly) runtime.mirror.outbox.unblockAll();
    const queued = runtime.queuedEditCount();
    runtime.attach(makeSession(runtime), this.#startsEngines());
    this.#announce();
    // Paused: the edits wait for resume like every other push.
    if (queued > 0 && !this.#paused) void runtime.pushQueuedEdits();
    return { account: this.#summary(record), created, queued_edits: queued };
  }

  async #openRuntime(record: AccountRecord): Promise<AccountRuntime<M, E>> {
    const { nativeBinding } = this.#options;
    // The default engine pulls in a worker whose connection commits every
    // poll: it checkpoints the log, so this (main-process) connection's edits
    // never stall on it.
    const checkpoints = this.#options.createEngine === undefined ? 'another-connection' : 'on-commit';
    const open =
      this.#options.openMirror ??
      ((file: string) =>
        openMirrorFile(file, {
          checkpoints,
          ...(nativeBinding !== undefined ? { nativeBinding } : {}),
        }) as unknown as Promise<M>);
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

  /** The session of an account signed in at the last run, if its secret is still kept. */
  async #resumeSession(runtime: AccountRuntime<M, E>): Promise<AccountSession<E> | null> {
    const record = runtime.record;
    // An edited accounts.json must not send a kept sign-in's tokens to another server.
    if (!isTrustedServerPair(record.base_url, record.auth_url)) return null;
    if (record.token_kind === 'oauth') {
      if ((await this.#secrets.get(refreshTokenKey(record.id))) === undefined) return null;
      return this.#oauthSession(runtime, TokenKeeper.resume(this.#keeperOptions(record)));
    }
    const token = await this.#secrets.get(accessTokenKey(record.id));
    return token === undefined ? null : this.#pastedTokenSession(runtime, token);
  }

  #pastedTokenSession(runtime: AccountRuntime<M, E>, token: string): AccountSession<E> {
    return this.#session(runtime, { getAccessToken: () => Promise.resolve(token) }, null);
  }

  #oauthSession(runtime: AccountRuntime<M, E>, keeper: TokenKeeper): AccountSession<E> {
    return this.#session(runtime, apiCredentials(keeper), keeper);
  }

  #session(
    runtime: AccountRuntime<M, E>,
    inner: CredentialSource,
    keeper: TokenKeeper | null,
  ): AccountSession<E> {
    const record = runtime.record;
    let session: AccountSession<E> | null = null;
    const credentials = watchedCredentials(inner, this.#known, (reason) => {
      // A refresh that failed for another reason than the service refusing it (the secret store) is not a sign-out.
      const ended = keeper === null || keeper.state === 'signed-out' || reason !== 'token-expired';
      if (ended && session !== null) void this.#sessionRefused(runtime, session);
    });
    const api = new ApiClient({
      ...this.#options.client,
      baseUrl: record.base_url,
      credentials,
      ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
    });
    const createEngine =
      this.#options.createEngine === undefined
        ? (defaultEngineFactory(this.#options) as unknown as CreateSyncEngine<M, E>)
        : this.#options.createEngine;
    const engine =
      createEngine?.({
        accountId: record.id,
        mirror: runtime.mirror,
        api,
        me: { user_id: record.identity.user_id, username: record.identity.username },
        readOnly: record.read_only,
        onEvent: (event) => runtime.emit({ type: 'sync', event }),
      }) ?? null;
    session = { api, credentials, keeper, engine };
    return session;
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

  #keeperOptions(record: AccountRecord) {
    return {
      authUrl: record.auth_url,
      clientId: record.client_id,
      store: this.#secrets,
      storeKey: refreshTokenKey(record.id),
      ...(this.#options.now ? { now: this.#options.now } : {}),
      ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
    };
  }

  #clientOptions() {
    return {
      ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
      ...(this.#options.client ? { client: this.#options.client } : {}),
    };
  }

  #now(): number {
    return (this.#options.now ?? Date.now)();
  }

  #summary(record: AccountRecord): AccountSummary {
    const runtime = this.#runtimes.get(record.id);
    const status = runtime?.status;
    return {
      id: record.id,
      base_url: record.base_url,
      auth_url: record.auth_url,
      client_id: record.client_id,
      identity: record.identity,
      token_kind: record.token_kind,
      read_only: record.read_only,
      mirror_path: this.#registry.mirrorPath(record),
      state: status?.state ?? 'signed-out',
      signed_out_reason: status ? status.signed_out_reason : record.signed_out_reason,
      queued_edits: status?.queued_edits ?? 0,
      current: this.#registry.contents.current_account_id === record.id,
      session_ends_at: record.session_ends_at ?? null,
      read_only_kinds: readOnlyKindsOf(record),
    };
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

/** The kinds `record`'s sign-in may not write: not granted, or refused by the service since. */
export function readOnlyKindsOf(record: AccountRecord): ReadOnlyKind[] {
  const kinds = kindsNotGranted(record.granted_scopes ?? null);
  for (const scope of record.refused_scopes ?? []) {
    for (const kind of kindsNeeding(scope)) if (!kinds.has(kind)) kinds.set(kind, scope);
  }
  return [...kinds].map(([kind, scope]) => ({ kind, scope }));
}

/** The app's engine: pull, push and the scheduler over db/'s mirror, its pull worker where the host says. */
function defaultEngineFactory(
  options: Pick<AccountManagerOptions, 'pullWorkerUrl' | 'nativeBinding'>,
): (input: SyncEngineInput<Mirror>) => SyncEngine {
  return (input) =>
    new SyncEngine({
      mirror: input.mirror,
      api: input.api,
      me: input.me,
      onEvent: input.onEvent,
      pullWorker: {
        ...(options.pullWorkerUrl !== undefined ? { workerUrl: options.pullWorkerUrl } : {}),
        ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
      },
    });
}

/**
 * Credentials that report when the service no longer accepts them: a 401 the
 * API client took as final, or a refresh the token keeper ended with
 * `invalid_grant` (spent, revoked or expired refresh token).
 */
function watchedCredentials(
  inner: CredentialSource,
  known: KnownSecrets,
  onRefused: (reason: ApiSignedOutReason) => void,
): CredentialSource {
  const watch = async (pending: Promise<string>): Promise<string> => {
    try {
      // Every access token handed out, renewed ones too, is one the logs must never show.
      const token = await pending;
      known.note(token);
      return token;
    } catch (error) {
      if (error instanceof ApiSignedOutError) onRefused(error.reason);
      throw error;
    }
  };
  const refresh = inner.refresh?.bind(inner);
  return {
    getAccessToken: () => watch(inner.getAccessToken()),
    ...(refresh ? { refresh: () => watch(refresh()) } : {}),
    onSignedOut: (reason) => {
      inner.onSignedOut?.(reason);
      onRefused(reason);
    },
  };
}

/** Deletes a mirror and the files SQLite keeps beside it. */
export async function removeMirrorFiles(file: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm', '-journal']) await rm(`${file}${suffix}`, { force: true });
}

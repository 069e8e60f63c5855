// Signing in to an account, new or listed: with a pasted token or through the
// system browser (OAuth), the token's user and organization asked of
// `GET /v1/me`, the account to sign in to chosen, its secrets kept and its
// session attached. Apart from the account manager's lifecycle (opening,
// signing out, switching), which it is given the parts of that it needs.
import { OAuthSignIn } from '../auth/oauth-flow';
import { classifyPastedToken } from '../auth/pasted-token';
import { refreshTokenKey } from '../auth/secret-store';
import type { TokenGrant } from '../auth/token-endpoint';
import { TokenKeeper } from '../auth/token-keeper';
import { AccountMismatchError, AccountNotFoundError } from './account-errors';
import {
  type AccountIdentity,
  type AccountRecord,
  type AccountRegistry,
  type TokenKind,
  mirrorFileNameFor,
  newAccountId,
} from './account-registry';
import type { AccountMirror, AccountRuntime, AccountSession, AccountSyncEngine } from './account-runtime';
import { type AccountSecrets, accessTokenKey } from './account-secrets';
import type { AccountSessionOptions, AccountSessions } from './account-sessions';
import type { AccountSummary } from './account-summary';
import { identityOfToken } from './identity-check';
import type { KnownSecrets } from './known-secrets';
import { type ServerSettings, assertTrustedServerPair, resolveServerSettings } from './server-settings';

/** The account manager's options a sign-in reads (see AccountManagerOptions). */
export interface SignInOptions {
  /** Server settings used when a sign-in does not give its own (see serverDefaultsFromEnvironment). */
  defaults: Partial<ServerSettings>;
  /** How long a browser sign-in waits; default 5 minutes (the flow's). */
  signInTimeoutMs?: number;
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

/** What a sign-in needs of the account manager. */
export interface SignInParts<M extends AccountMirror, E extends AccountSyncEngine> {
  options: SignInOptions & Pick<AccountSessionOptions<M, E>, 'now' | 'dispatcher' | 'client'>;
  registry: AccountRegistry;
  secrets: AccountSecrets;
  known: KnownSecrets;
  sessions: AccountSessions<M, E>;
  /** Runs registry and session changes one at a time. */
  serialized: <T>(work: () => Promise<T>) => Promise<T>;
  /** The account's runtime, if it is open. */
  runtimeOf: (accountId: string) => AccountRuntime<M, E> | undefined;
  openRuntime: (record: AccountRecord) => Promise<AccountRuntime<M, E>>;
  /** Undoes `openRuntime` of an account the registry did not take: the runtime, mirror files and secrets go. */
  discardRuntime: (runtime: AccountRuntime<M, E>) => Promise<void>;
  /** Whether a session attached now starts its engine. */
  startsEngines: () => boolean;
  /** The person paused syncing: queued edits wait for resume. */
  isPaused: () => boolean;
  /** Tells the listeners the account list changed. */
  announce: () => void;
  summary: (record: AccountRecord) => AccountSummary;
  now: () => number;
}

export class AccountSignIn<M extends AccountMirror, E extends AccountSyncEngine> {
  readonly #parts: SignInParts<M, E>;
  #attempt: OAuthSignIn | null = null;

  constructor(parts: SignInParts<M, E>) {
    this.#parts = parts;
  }

  /** See AccountManager.signInWithToken. */
  async withToken(input: PastedTokenSignIn): Promise<SignInResult> {
    const { known, secrets, serialized, sessions } = this.#parts;
    const pasted = classifyPastedToken(input.token);
    known.note(pasted.token);
    const server = this.#serverFor(input.accountId, input.server);
    const identity = await identityOfToken(server.base_url, pasted.token, this.#clientOptions());
    return serialized(async () => {
      const { record, created } = this.#target(input.accountId, server, identity);
      await secrets.set(accessTokenKey(record.id), pasted.token);
      await secrets.delete(refreshTokenKey(record.id));
      const kind: TokenKind = pasted.kind;
      return this.#complete(record, created, kind, pasted.readOnly, (runtime) =>
        sessions.pastedToken(runtime, pasted.token),
      );
    });
  }

  /** See AccountManager.signInWithBrowser. */
  async withBrowser(input: BrowserSignIn): Promise<SignInResult> {
    const { options, known, secrets, serialized, sessions } = this.#parts;
    const server = this.#serverFor(input.accountId, input.server);
    this.#attempt?.cancel();
    const attempt = new OAuthSignIn(
      { authUrl: server.auth_url, clientId: server.client_id },
      {
        openUrl: input.openUrl,
        ...(options.now ? { now: options.now } : {}),
        ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
        ...(options.signInTimeoutMs !== undefined ? { attemptTimeoutMs: options.signInTimeoutMs } : {}),
      },
    );
    this.#attempt = attempt;
    // The browser's page waits for all of it: "Signed in" only once the account is kept.
    const finish = async (grant: TokenGrant): Promise<SignInResult> => {
      known.note(grant.accessToken);
      known.note(grant.refreshToken);
      const me = await identityOfToken(server.base_url, grant.accessToken, this.#clientOptions());
      // Our service's token answer names the organization (gaps.md); a standard server's does not, /v1/me may.
      const identity: AccountIdentity = { ...me, org_id: grant.orgId ?? me.org_id };
      return serialized(async () => {
        const { record, created } = this.#target(input.accountId, server, identity);
        await secrets.delete(accessTokenKey(record.id));
        const keeper = await TokenKeeper.fromGrant(grant, sessions.keeperOptions(record));
        // Without a refresh token the session lasts as long as the access token (RFC 6749 5.1): the screens say until when.
        const endsAt =
          grant.refreshToken === null && grant.expiresAt !== null
            ? new Date(grant.expiresAt).toISOString()
            : null;
        return this.#complete(
          record,
          created,
          'oauth',
          false,
          (runtime) => sessions.oauth(runtime, keeper),
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
  cancel(): void {
    this.#attempt?.cancel();
  }

  #serverFor(accountId: string | undefined, overrides: Partial<ServerSettings> | undefined): ServerSettings {
    if (accountId !== undefined) {
      const record = this.#parts.registry.account(accountId);
      if (!record) throw new AccountNotFoundError(accountId);
      // accounts.json is only a file: a pair edited in it is held to the same rule as one typed.
      assertTrustedServerPair(record);
      return { base_url: record.base_url, auth_url: record.auth_url, client_id: record.client_id };
    }
    return resolveServerSettings(this.#parts.options.defaults, overrides);
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
    const { registry } = this.#parts;
    if (accountId !== undefined) {
      const record = registry.account(accountId);
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
    const existing = registry.accounts.find(
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
        created_at: new Date(this.#parts.now()).toISOString(),
        signed_in_at: null,
      },
      created: true,
    };
  }

  async #complete(
    target: AccountRecord,
    created: boolean,
    kind: TokenKind,
    readOnly: boolean,
    makeSession: (runtime: AccountRuntime<M, E>) => AccountSession<E>,
    sessionEndsAt: string | null = null,
    grantedScopes: readonly string[] | null = null,
  ): Promise<SignInResult> {
    const { registry } = this.#parts;
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
      signed_in_at: new Date(this.#parts.now()).toISOString(),
    };
    // The mirror first: an account is only listed once its mirror could be opened.
    let runtime = this.#parts.runtimeOf(record.id);
    const opened = runtime === undefined;
    runtime ??= await this.#parts.openRuntime(record);
    try {
      await registry.update((draft) => {
        const index = draft.accounts.findIndex((account) => account.id === record.id);
        if (index === -1) draft.accounts.push(record);
        else draft.accounts[index] = record;
        if (created || draft.current_account_id === null) draft.current_account_id = record.id;
      });
    } catch (error) {
      if (opened) await this.#parts.discardRuntime(runtime);
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
    runtime.attach(makeSession(runtime), this.#parts.startsEngines());
    this.#parts.announce();
    // Paused: the edits wait for resume like every other push.
    if (queued > 0 && !this.#parts.isPaused()) void runtime.pushQueuedEdits();
    return { account: this.#parts.summary(record), created, queued_edits: queued };
  }

  #clientOptions() {
    const { options } = this.#parts;
    return {
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(options.client ? { client: options.client } : {}),
    };
  }
}

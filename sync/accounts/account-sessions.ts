// What a signed-in account has on top of its mirror: its credentials (a
// pasted token, or the OAuth token keeper) watched for the service refusing
// them, its API client and its sync engine; resumed at start from the secrets
// kept. Apart from the account manager, which attaches and detaches these
// sessions, because the sign-in flow builds them too.
import type { Dispatcher } from 'undici';
import { ApiClient, type ApiClientOptions } from '../api/api-client';
import type { CredentialSource } from '../api/credentials';
import {
  SignedOutError as ApiSignedOutError,
  type SignedOutReason as ApiSignedOutReason,
} from '../api/errors';
import { apiCredentials } from '../auth/api-credentials';
import { refreshTokenKey } from '../auth/secret-store';
import { TokenKeeper } from '../auth/token-keeper';
import type { Mirror } from '../../db/mirror';
import { SyncEngine } from '../engine/sync-engine';
import { DEFAULT_ATTACHMENT_CACHE_BYTES } from '../attachments/attachment-cache';
import type { AccountRecord } from './account-registry';
import type {
  AccountMirror,
  AccountRuntime,
  AccountSession,
  AccountSyncEngine,
  CreateSyncEngine,
  SyncEngineInput,
} from './account-runtime';
import { type AccountSecrets, accessTokenKey } from './account-secrets';
import type { KnownSecrets } from './known-secrets';
import { isTrustedServerPair } from './server-settings';

/** The account manager's options a session is built with (see AccountManagerOptions). */
export interface AccountSessionOptions<
  M extends AccountMirror = Mirror,
  E extends AccountSyncEngine = SyncEngine,
> {
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
  /** Milliseconds since the epoch (token expiry); default Date.now. */
  now?: () => number;
  /** undici dispatcher for every request (tests); default each client's own pool. */
  dispatcher?: Dispatcher;
  /** Extra API client settings for every account (tests shorten retries). */
  client?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'credentials' | 'dispatcher'>>;
  /**
   * The default engine's attachments' cache size, read at each fill (the person's
   * setting); default DEFAULT_ATTACHMENT_CACHE_BYTES.
   */
  attachmentCacheBytes?: () => number;
}

export class AccountSessions<M extends AccountMirror = Mirror, E extends AccountSyncEngine = SyncEngine> {
  readonly #options: AccountSessionOptions<M, E>;
  readonly #secrets: AccountSecrets;
  readonly #known: KnownSecrets;
  readonly #onRefused: (runtime: AccountRuntime<M, E>, session: AccountSession<E>) => void;

  /** `onRefused`: the service no longer accepts `session`'s sign-in (it is over). */
  constructor(
    options: AccountSessionOptions<M, E>,
    secrets: AccountSecrets,
    known: KnownSecrets,
    onRefused: (runtime: AccountRuntime<M, E>, session: AccountSession<E>) => void,
  ) {
    this.#options = options;
    this.#secrets = secrets;
    this.#known = known;
    this.#onRefused = onRefused;
  }

  /** The session of an account signed in at the last run, if its secret is still kept. */
  async resume(runtime: AccountRuntime<M, E>): Promise<AccountSession<E> | null> {
    const record = runtime.record;
    // An edited accounts.json must not send a kept sign-in's tokens to another server.
    if (!isTrustedServerPair(record.base_url, record.auth_url)) return null;
    if (record.token_kind === 'oauth') {
      if ((await this.#secrets.get(refreshTokenKey(record.id))) === undefined) return null;
      return this.oauth(runtime, TokenKeeper.resume(this.keeperOptions(record)));
    }
    const token = await this.#secrets.get(accessTokenKey(record.id));
    return token === undefined ? null : this.pastedToken(runtime, token);
  }

  pastedToken(runtime: AccountRuntime<M, E>, token: string): AccountSession<E> {
    return this.#session(runtime, { getAccessToken: () => Promise.resolve(token) }, null);
  }

  oauth(runtime: AccountRuntime<M, E>, keeper: TokenKeeper): AccountSession<E> {
    return this.#session(runtime, apiCredentials(keeper), keeper);
  }

  /** How `record`'s token keeper renews its tokens and where it keeps the refresh token. */
  keeperOptions(record: AccountRecord) {
    return {
      authUrl: record.auth_url,
      clientId: record.client_id,
      store: this.#secrets,
      storeKey: refreshTokenKey(record.id),
      ...(this.#options.now ? { now: this.#options.now } : {}),
      ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
    };
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
      if (ended && session !== null) this.#onRefused(runtime, session);
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
}

/** The app's engine: pull, push and the scheduler over db/'s mirror, its pull worker where the host says. */
function defaultEngineFactory(
  options: Pick<AccountSessionOptions, 'pullWorkerUrl' | 'nativeBinding' | 'attachmentCacheBytes'>,
): (input: SyncEngineInput<Mirror>) => SyncEngine {
  return (input) =>
    new SyncEngine({
      mirror: input.mirror,
      api: input.api,
      me: input.me,
      onEvent: input.onEvent,
      // The app keeps attachments' content for offline opening, within the person's size.
      attachmentCache: { limitBytes: options.attachmentCacheBytes ?? (() => DEFAULT_ATTACHMENT_CACHE_BYTES) },
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

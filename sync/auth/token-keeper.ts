// Keeps one account's OAuth session going: the access token in memory, renewed
// before it expires and after a 401 `token-expired`, one refresh at a time, and
// each rotated refresh token saved before the access token that came with it
// is handed out, so a crash in between cannot sign the person out. A grant
// without a refresh token (RFC 6749 makes it optional) lasts as long as its
// access token; a refused refresh token is deleted, never presented again.
import { inspect } from 'node:util';
import type { Dispatcher } from 'undici';
import {
  AuthServerUnavailableError,
  OAuthProtocolError,
  SecretStoreError,
  SignedOutError,
  type SignedOutReason,
} from './auth-errors';
import { oauthEndpoint, parseAuthUrl } from './auth-url';
import type { CredentialSource } from '../api/credentials';
import type { SecretStore } from './secret-store';
import { type TokenGrant, requestTokens } from './token-endpoint';

/** Renew this long before the access token expires (it lives an hour). */
export const DEFAULT_REFRESH_MARGIN_MS = 2 * 60_000;

export interface TokenKeeperOptions {
  authUrl: string;
  clientId: string;
  store: SecretStore;
  /** Where this account's refresh token lives in `store` (see refreshTokenKey). */
  storeKey: string;
  /**
   * Where a host that keeps no process between runs (the headless command)
   * saved an access token that came without a refresh token: deleted with the
   * session when it lapses or is refused.
   */
  accessStoreKey?: string;
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
  refreshMarginMs?: number;
  dispatcher?: Dispatcher;
  requestTimeoutMs?: number;
}

interface AccessToken {
  token: string;
  /** Null: the server did not say; valid until the service answers 401. */
  expiresAt: number | null;
}

export type SessionState = 'signed-in' | 'signed-out';

export class TokenKeeper implements CredentialSource {
  readonly #options: TokenKeeperOptions;
  readonly #tokenEndpoint: URL;
  readonly #now: () => number;
  #access: AccessToken | undefined;
  /** A rotated grant received but not yet saved: the store failed; saving is retried before anything else. */
  #unsaved: TokenGrant | undefined;
  #inFlight: Promise<string> | undefined;
  #signedOut: SignedOutError | undefined;
  #scopes: readonly string[] = [];
  #orgId: string | undefined;
  /** False after a grant without a refresh token: nothing can renew the access token. */
  #renewable = true;

  private constructor(options: TokenKeeperOptions) {
    this.#options = options;
    this.#tokenEndpoint = oauthEndpoint(parseAuthUrl(options.authUrl), 'token');
    this.#now = options.now ?? Date.now;
  }

  /**
   * After a browser sign-in: saves the grant's refresh token first, then keeps
   * its access token. A grant without a refresh token replaces any saved one
   * (it belonged to an earlier sign-in) and lasts as long as its access token.
   */
  static async fromGrant(grant: TokenGrant, options: TokenKeeperOptions): Promise<TokenKeeper> {
    const keeper = new TokenKeeper(options);
    if (grant.refreshToken !== null) await keeper.#save(grant.refreshToken);
    else {
      await keeper.#delete(options.storeKey);
      keeper.#renewable = false;
    }
    keeper.#adopt(grant);
    return keeper;
  }

  /**
   * After a restart: nothing in memory yet; the first getAccessToken refreshes
   * with the saved refresh token (SignedOutError `no-refresh-token` if none).
   */
  static resume(options: TokenKeeperOptions): TokenKeeper {
    return new TokenKeeper(options);
  }

  get state(): SessionState {
    return this.#signedOut ? 'signed-out' : 'signed-in';
  }
  /** Scopes of the last grant; empty until the first one. */
  get scopes(): readonly string[] {
    return this.#scopes;
  }
  /** Organization of the last grant that named one; undefined until then (ask `/v1/me`). */
  get orgId(): string | undefined {
    return this.#orgId;
  }
  /** The sign-in server this session renews with. */
  get authUrl(): string {
    return this.#options.authUrl;
  }
  /**
   * Whether the session can renew itself. False when the server gave no
   * refresh token: it ends when the access token lapses (`accessExpiresAt`).
   */
  get renewable(): boolean {
    return this.#renewable;
  }
  /** When the current access token expires (ms since the epoch); null when unknown or none is held. */
  get accessExpiresAt(): number | null {
    return this.#access?.expiresAt ?? null;
  }

  /**
   * The access token to send now. Renews it first when it expires within the
   * margin; if that renewal only failed to reach the server while the token is
   * still valid, the current token is used (being offline is not an error here).
   */
  async getAccessToken(): Promise<string> {
    if (this.#signedOut) throw this.#signedOut;
    const access = this.#access;
    const now = this.#now();
    const margin = this.#options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
    // Without a refresh token there is nothing to renew early with: the token serves to its last moment.
    const renewAt = access?.expiresAt == null ? Infinity : access.expiresAt - (this.#renewable ? margin : 0);
    if (access && now < renewAt && !this.#unsaved) return access.token;
    try {
      return await this.refresh();
    } catch (error) {
      const stillValid = access !== undefined && isValidAt(access, this.#now()) && this.#access === access;
      if (stillValid && error instanceof AuthServerUnavailableError) return access.token;
      throw error;
    }
  }

  /**
   * Renew the access token (after a 401 `token-expired`). Concurrent calls share
   * one request. With `rejectedToken`, a token renewed meanwhile is returned
   * without another rotation.
   */
  refresh(rejectedToken?: string): Promise<string> {
    if (this.#signedOut) return Promise.reject(this.#signedOut);
    if (this.#inFlight) return this.#inFlight;
    const access = this.#access;
    if (
      rejectedToken !== undefined &&
      access &&
      access.token !== rejectedToken &&
      isValidAt(access, this.#now())
    ) {
      return Promise.resolve(access.token);
    }
    const inFlight = this.#renew().finally(() => {
      if (this.#inFlight === inFlight) this.#inFlight = undefined;
    });
    this.#inFlight = inFlight;
    return inFlight;
  }

  /**
   * Sign-out: forget the access token and delete the saved refresh token. The
   * account's mirror and outbox are not this object's business.
   */
  async forget(): Promise<void> {
    this.#access = undefined;
    this.#unsaved = undefined;
    this.#signedOut = new SignedOutError('no-refresh-token');
    await this.#delete(this.#options.storeKey);
    if (this.#options.accessStoreKey !== undefined) await this.#delete(this.#options.accessStoreKey);
  }

  async #renew(): Promise<string> {
    if (this.#unsaved) {
      // A rotation whose refresh token could not be saved: the old one is spent, so save this one now.
      const unsaved = this.#unsaved;
      if (unsaved.refreshToken !== null) await this.#save(unsaved.refreshToken);
      this.#unsaved = undefined;
      this.#adopt(unsaved);
      const margin = this.#options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS;
      if (unsaved.expiresAt === null || this.#now() < unsaved.expiresAt - margin) return unsaved.accessToken;
    }
    if (!this.#renewable) {
      // The grant came without a refresh token: its access token lapsed (or was refused), and that is the end.
      await this.#deleteQuietly(this.#options.accessStoreKey);
      throw this.#signOut('access-token-lapsed');
    }
    const refreshToken = await this.#load();
    if (refreshToken === undefined) throw this.#signOut('no-refresh-token');
    let grant: TokenGrant;
    try {
      grant = await requestTokens(
        this.#tokenEndpoint,
        { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: this.#options.clientId },
        {
          stage: 'refresh',
          now: this.#now,
          // RFC 6749 6: a refresh answer without `scope` keeps the scopes already granted.
          assumedScopes: this.#scopes,
          knownSecrets: [refreshToken, ...(this.#access ? [this.#access.token] : [])],
          ...(this.#options.dispatcher ? { dispatcher: this.#options.dispatcher } : {}),
          ...(this.#options.requestTimeoutMs !== undefined
            ? { timeoutMs: this.#options.requestTimeoutMs }
            : {}),
        },
      );
    } catch (error) {
      // invalid_grant: the refresh token is spent, revoked or expired; only signing in again helps.
      if (error instanceof OAuthProtocolError && error.code === 'invalid_grant') {
        // Deleted, so that no later run presents it again (unless another process has rotated it meanwhile).
        if ((await this.#load().catch(() => undefined)) === refreshToken) {
          await this.#deleteQuietly(this.#options.storeKey);
        }
        throw this.#signOut('refresh-token-refused');
      }
      throw error;
    }
    if (grant.refreshToken === null) {
      // RFC 6749 6: no new refresh token, so the one we hold stays valid and stays saved.
      this.#adopt(grant);
      return grant.accessToken;
    }
    // The old refresh token no longer works: until the new one is saved, the new access token stays unused.
    this.#unsaved = grant;
    await this.#save(grant.refreshToken);
    this.#unsaved = undefined;
    this.#adopt(grant);
    return grant.accessToken;
  }

  #adopt(grant: TokenGrant): void {
    this.#access = { token: grant.accessToken, expiresAt: grant.expiresAt };
    this.#scopes = grant.scopes;
    // A refresh answer that names no organization leaves the one we know.
    if (grant.orgId !== null) this.#orgId = grant.orgId;
  }

  #signOut(reason: SignedOutReason): SignedOutError {
    this.#access = undefined;
    this.#signedOut = new SignedOutError(reason);
    return this.#signedOut;
  }

  async #load(): Promise<string | undefined> {
    try {
      return await this.#options.store.get(this.#options.storeKey);
    } catch (error) {
      throw new SecretStoreError('get', codeOf(error));
    }
  }

  async #delete(key: string): Promise<void> {
    try {
      await this.#options.store.delete(key);
    } catch (error) {
      throw new SecretStoreError('delete', codeOf(error));
    }
  }

  /** For a secret already dead: failing to delete it must not hide why the session ended. */
  async #deleteQuietly(key: string | undefined): Promise<void> {
    if (key !== undefined) await this.#options.store.delete(key).catch(() => undefined);
  }

  async #save(refreshToken: string): Promise<void> {
    try {
      await this.#options.store.set(this.#options.storeKey, refreshToken);
    } catch (error) {
      throw new SecretStoreError('set', codeOf(error));
    }
  }

  [inspect.custom](): string {
    return `TokenKeeper { state: '${this.state}', orgId: ${JSON.stringify(this.#orgId ?? null)} }`;
  }
  toJSON(): Record<string, unknown> {
    return { state: this.state, orgId: this.#orgId ?? null, scopes: this.#scopes };
  }
}

function isValidAt(access: AccessToken, now: number): boolean {
  return access.expiresAt === null || now < access.expiresAt;
}

function codeOf(error: unknown): string | null {
  if (error instanceof SecretStoreError) return error.code;
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return null;
}

// Keeps one account's OAuth session going: the access token in memory, renewed
// before it expires and after a 401 `token-expired`, one refresh at a time, and
// each rotated refresh token saved before the access token that came with it
// is handed out, so a crash in between cannot sign the person out.
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
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
  refreshMarginMs?: number;
  dispatcher?: Dispatcher;
  requestTimeoutMs?: number;
}

interface AccessToken {
  token: string;
  expiresAt: number;
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

  private constructor(options: TokenKeeperOptions) {
    this.#options = options;
    this.#tokenEndpoint = oauthEndpoint(parseAuthUrl(options.authUrl), 'token');
    this.#now = options.now ?? Date.now;
  }

  /** After a browser sign-in: saves the grant's refresh token first, then keeps its access token. */
  static async fromGrant(grant: TokenGrant, options: TokenKeeperOptions): Promise<TokenKeeper> {
    const keeper = new TokenKeeper(options);
    await keeper.#save(grant.refreshToken);
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
  /** Organization of the last grant; undefined until the first one. */
  get orgId(): string | undefined {
    return this.#orgId;
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
    if (access && now < access.expiresAt - margin && !this.#unsaved) return access.token;
    try {
      return await this.refresh();
    } catch (error) {
      const stillValid = access !== undefined && this.#now() < access.expiresAt && this.#access === access;
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
      this.#now() < access.expiresAt
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
    try {
      await this.#options.store.delete(this.#options.storeKey);
    } catch (error) {
      throw new SecretStoreError('delete', codeOf(error));
    }
  }

  async #renew(): Promise<string> {
    if (this.#unsaved) {
      // A rotation whose refresh token could not be saved: the old one is spent, so save this one now.
      const unsaved = this.#unsaved;
      await this.#save(unsaved.refreshToken);
      this.#unsaved = undefined;
      this.#adopt(unsaved);
      if (this.#now() < unsaved.expiresAt - (this.#options.refreshMarginMs ?? DEFAULT_REFRESH_MARGIN_MS)) {
        return unsaved.accessToken;
      }
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
        throw this.#signOut('refresh-token-refused');
      }
      throw error;
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
    this.#orgId = grant.orgId;
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

function codeOf(error: unknown): string | null {
  if (error instanceof SecretStoreError) return error.code;
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return null;
}

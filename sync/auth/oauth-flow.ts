// Browser sign-in as RFC 8252 asks of native apps: authorization code with
// PKCE, the consent page opened in the system browser through an injected
// `openUrl`, the code received on a loopback listener and exchanged for tokens;
// the browser is told how it ended only once it has.
import type { Dispatcher } from 'undici';
import { AuthError, BrowserOpenError, SignInAttemptEndedError } from './auth-errors';
import { assertOpenableInBrowser, oauthEndpoint, parseAuthUrl } from './auth-url';
import { type LoopbackListener, startLoopbackListener } from './loopback-listener';
import { createPkcePair } from './pkce';
import { type RandomBytes, base64Url, systemRandomBytes } from './randomness';
import { type TokenGrant, requestTokens } from './token-endpoint';

/**
 * What the desktop app asks for by default: it reads and edits tasks, and
 * edits the sprints (teams:write), goals and milestones (projects:write) it
 * offers, and reads the people they refer to.
 */
export const DEFAULT_SCOPES: readonly string[] = [
  'tasks:write',
  'projects:read',
  'projects:write',
  'teams:read',
  'teams:write',
  'members:read',
];

/** 32 bytes: 256 bits of state, well over the 128 the issue asks for. */
const STATE_BYTES = 32;

export interface OAuthClientConfig {
  /** The OAuth server's base (`auth_url`); https, or http on a loopback host only. */
  authUrl: string;
  /** The app's public OAuth client id, e.g. `svcc_desktop`. */
  clientId: string;
  /** Scopes to ask for; default DEFAULT_SCOPES. */
  scopes?: readonly string[];
  /**
   * The server's issuer identifier, checked against the redirect's `iss`
   * (RFC 9207) when the server sends one; default the `auth_url` itself.
   */
  issuer?: string;
}

export interface SignInOptions<T> {
  signal?: AbortSignal;
  /**
   * What the caller still does before the sign-in counts (ask `/v1/me` who
   * signed in, check the account): the browser's page waits for it and says
   * whether it succeeded.
   */
  finish?: (grant: TokenGrant) => Promise<T>;
}

export interface OAuthSignInDeps {
  /** Opens the consent page in the system browser (`shell.openExternal` in main/; print it, headless). */
  openUrl(url: string): void | Promise<void>;
  /** Randomness for PKCE and `state`; default the OS CSPRNG. */
  random?: RandomBytes;
  /** Milliseconds since the epoch, for the access token's expiry; default Date.now. */
  now?: () => number;
  /** undici dispatcher for the token request; default the global one. */
  dispatcher?: Dispatcher;
  /** How long an attempt waits for the browser; default 5 minutes. */
  attemptTimeoutMs?: number;
  /** Loopback port; default 0 (the OS picks). */
  port?: number;
  /** Callback path; default `/callback` (the registered redirect URI's path). */
  callbackPath?: string;
}

/**
 * Runs sign-in attempts for one configured server. Starting an attempt ends the
 * one still waiting (as `superseded`): the person clicked "Sign in" again.
 */
export class OAuthSignIn {
  readonly authUrl: URL;
  readonly clientId: string;
  readonly scopes: readonly string[];
  readonly issuer: string;
  private current: AbortController | undefined;

  /** Throws AuthUrlRefusedError when `config.authUrl` is not an address we may use. */
  constructor(
    config: OAuthClientConfig,
    private readonly deps: OAuthSignInDeps,
  ) {
    this.authUrl = parseAuthUrl(config.authUrl);
    this.clientId = config.clientId;
    this.scopes = config.scopes ?? DEFAULT_SCOPES;
    this.issuer = config.issuer ?? this.authUrl.href;
  }

  /**
   * One attempt: open the consent page, wait for the loopback redirect,
   * exchange the code. Rejects with a typed AuthError: OAuthProtocolError
   * (access_denied and every other RFC 6749 error), SignInAttemptEndedError
   * (timeout, cancel, superseded), LoopbackListenError, BrowserOpenError,
   * IssuerMismatchError, AuthServerUnavailableError or TokenResponseInvalidError
   * (and whatever `finish` rejects with). The browser is answered after the
   * exchange and `finish`: "Signed in", or why not.
   *
   * The grant is not stored anywhere: hand it to TokenKeeper.fromGrant, which
   * saves the refresh token before anything uses the access token.
   */
  signIn(options?: { signal?: AbortSignal }): Promise<TokenGrant>;
  signIn<T>(options: SignInOptions<T> & { finish: (grant: TokenGrant) => Promise<T> }): Promise<T>;
  async signIn<T>(options: SignInOptions<T> = {}): Promise<T | TokenGrant> {
    this.current?.abort(new SignInAttemptEndedError('superseded'));
    const attempt = new AbortController();
    this.current = attempt;
    const stopFollowing = follow(options.signal, attempt);
    let listener: LoopbackListener | undefined;
    try {
      const random = this.deps.random ?? systemRandomBytes;
      const pkce = createPkcePair(random);
      const state = base64Url(random(STATE_BYTES));
      listener = await startLoopbackListener({
        expectedState: state,
        signal: attempt.signal,
        ...(this.deps.attemptTimeoutMs !== undefined ? { timeoutMs: this.deps.attemptTimeoutMs } : {}),
        ...(this.deps.port !== undefined ? { port: this.deps.port } : {}),
        ...(this.deps.callbackPath !== undefined ? { path: this.deps.callbackPath } : {}),
        expectedIssuer: this.issuer,
      });

      const authorize = oauthEndpoint(this.authUrl, 'authorize');
      authorize.search = new URLSearchParams({
        response_type: 'code',
        client_id: this.clientId,
        redirect_uri: listener.redirectUri,
        scope: this.scopes.join(' '),
        state,
        code_challenge: pkce.challenge,
        code_challenge_method: pkce.method,
      }).toString();
      assertOpenableInBrowser(authorize.href, this.authUrl);
      // Not awaited alone: an openUrl that never settles must not outlast the attempt's timeout.
      const browserFailed = Promise.resolve()
        .then(() => this.deps.openUrl(authorize.href))
        .then(
          () => new Promise<never>(() => undefined),
          () => Promise.reject(new BrowserOpenError()),
        );
      const callback = await Promise.race([listener.callback, browserFailed]);
      const { code } = callback;
      try {
        const grant = await requestTokens(
          oauthEndpoint(this.authUrl, 'token'),
          {
            grant_type: 'authorization_code',
            code,
            // Must be the very string the authorization request carried (RFC 6749 4.1.3).
            redirect_uri: listener.redirectUri,
            client_id: this.clientId,
            code_verifier: pkce.verifier,
          },
          {
            stage: 'token',
            signal: attempt.signal,
            now: this.deps.now ?? Date.now,
            knownSecrets: [code, pkce.verifier],
            // RFC 6749 5.1: an answer without `scope` granted what was asked.
            assumedScopes: this.scopes,
            ...(this.deps.dispatcher ? { dispatcher: this.deps.dispatcher } : {}),
          },
        );
        const result = options.finish ? await options.finish(grant) : grant;
        callback.respond({ ok: true });
        return result;
      } catch (error) {
        callback.respond({ ok: false, message: explanationForBrowser(error) });
        throw error;
      }
    } finally {
      stopFollowing();
      await listener?.close();
      if (this.current === attempt) this.current = undefined;
    }
  }

  /** Cancel the attempt that is waiting, if any; it rejects with SignInAttemptEndedError `cancelled`. */
  cancel(): void {
    this.current?.abort(new SignInAttemptEndedError('cancelled'));
  }
}

/**
 * What the browser page says when the sign-in failed after the redirect. Typed
 * errors carry messages meant for people (and never a token); anything else
 * is not shown there.
 */
function explanationForBrowser(error: unknown): string {
  if (error instanceof AuthError) return error.message;
  if (error instanceof Error && typeof (error as { type?: unknown }).type === 'string') return error.message;
  if (error instanceof Error && typeof (error as { kind?: unknown }).kind === 'string') return error.message;
  return 'The app could not complete the sign-in.';
}

/** Abort `attempt` when the caller's signal aborts; returns the unsubscribe. */
function follow(signal: AbortSignal | undefined, attempt: AbortController): () => void {
  if (!signal) return () => undefined;
  const onAbort = (): void =>
    attempt.abort(
      signal.reason instanceof SignInAttemptEndedError
        ? signal.reason
        : new SignInAttemptEndedError('cancelled'),
    );
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

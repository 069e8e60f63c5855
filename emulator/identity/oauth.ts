// OAuth 2.0 authorization code with PKCE (S256) for the desktop app, as gaps.md
// describes it: the authorization server's state (consents, codes, grants,
// refresh tokens) and its checks. Its routes are in oauth-routes.ts, the pages
// they render in oauth-pages.ts.
import { createHash } from 'node:crypto';
import { type IdentityStore, type Member, isKnownScope } from './identity-store';

/** The one registered client: public (no secret), so PKCE is what binds the code to it. */
export const DESKTOP_CLIENT = {
  clientId: 'svcc_desktop',
  name: 'svc-desktop',
  /**
   * Loopback redirect: a URI that differs from this only in its port matches
   * (RFC 8252 §7.3). Host `localhost` and `[::1]` do not: RFC 8252 §8.3 advises
   * the IP literal, and the registration names 127.0.0.1.
   */
  redirectUris: ['http://127.0.0.1/callback'],
} as const;

export const ACCESS_TOKEN_TTL_S = 3600;
export const CODE_TTL_MS = 60_000;
/** Not in the contract; long enough that no test meets it unless it means to. */
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 3600_000;
/** How long a consent page's form stays good. */
const CONSENT_TTL_MS = 10 * 60_000;
const REFRESH_PREFIX = 'svcr_';

export interface OAuthDeps {
  store: IdentityStore;
  /** The member who signs in and consents: the emulator's main member. */
  consentUserId: string;
  /** Answer GET /oauth/authorize with the redirect at once (for automated tests). */
  autoApprove?: boolean | (() => boolean);
  /** Scopes no consent grants, whatever is asked: a narrower grant, as a person may choose on the page. */
  withheldScopes?: () => readonly string[];
}

/** RFC 6749 §5.2 / §4.1.2.1 error. */
export class OAuthError extends Error {
  override readonly name = 'OAuthError';
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export interface AuthorizeRequest {
  clientId: string;
  /** As presented (with its port): the token request must repeat it exactly. */
  redirectUri: string;
  scopes: string[];
  state: string | null;
  codeChallenge: string;
}

interface PendingConsent {
  request: AuthorizeRequest;
  csrf: string;
  expiresAt: number;
}

interface CodeEntry {
  request: AuthorizeRequest;
  userId: string;
  expiresAt: number;
  /** Set once exchanged: a second exchange revokes what the first one issued. */
  grantId: string | null;
}

interface Grant {
  grantId: string;
  clientId: string;
  userId: string;
  scopes: string[];
  accessTokenIds: string[];
  refreshHashes: string[];
  revoked: boolean;
}

interface RefreshEntry {
  grantId: string;
  expiresAt: number;
  spent: boolean;
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
  org_id: string;
}

/** Unreserved characters, 43..128 long (RFC 7636 §4.1, §4.2). */
const PKCE_VALUE = /^[A-Za-z0-9._~-]{43,128}$/;
const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** Whether a presented redirect URI matches a registered one (port ignored on loopback). */
export function redirectUriMatches(presented: string, registered: readonly string[]): boolean {
  let url: URL;
  try {
    url = new URL(presented);
  } catch {
    return false;
  }
  if (url.hash !== '' || presented.includes('#') || url.username !== '' || url.password !== '') return false;
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') {
    return registered.includes(presented);
  }
  url.port = '';
  return registered.includes(url.toString());
}

/** Codes, consents, grants and refresh tokens: the authorization server's state. */
export class OAuthAuthority {
  private readonly consents = new Map<string, PendingConsent>();
  private readonly codes = new Map<string, CodeEntry>();
  private readonly grants = new Map<string, Grant>();
  private readonly refreshTokens = new Map<string, RefreshEntry>();

  constructor(private readonly deps: OAuthDeps) {}

  get store(): IdentityStore {
    return this.deps.store;
  }

  autoApprove(): boolean {
    const flag = this.deps.autoApprove;
    return typeof flag === 'function' ? flag() : flag === true;
  }

  consentingMember(): Member | undefined {
    return this.store.lookupMember(this.deps.consentUserId);
  }

  /**
   * Checks an authorization request. Errors about the client or redirect URI
   * are `page` (never redirected, RFC 6749 §4.1.2.1); the rest go back to the
   * redirect URI with `state`.
   */
  checkAuthorize(
    query: Record<string, unknown>,
  ):
    | { ok: AuthorizeRequest }
    | { page: OAuthError }
    | { redirect: OAuthError; redirectUri: string; state: string | null } {
    const single = (name: string): string | undefined | null => {
      const value = query[name];
      if (value === undefined) return undefined;
      return typeof value === 'string' ? value : null; // repeated: RFC 6749 §3.1 refuses
    };
    const clientId = single('client_id');
    if (clientId !== DESKTOP_CLIENT.clientId) {
      return {
        page: new OAuthError(
          'invalid_client',
          clientId ? `unknown client_id ${clientId}` : 'client_id is required and given once',
        ),
      };
    }
    const redirectUri = single('redirect_uri');
    if (typeof redirectUri !== 'string' || !redirectUriMatches(redirectUri, DESKTOP_CLIENT.redirectUris)) {
      return {
        page: new OAuthError(
          'invalid_redirect_uri',
          redirectUri
            ? `redirect_uri ${redirectUri} is not registered for ${clientId}`
            : 'redirect_uri is required and given once',
        ),
      };
    }
    const state = single('state');
    const back = (error: string, description: string) => ({
      redirect: new OAuthError(error, description),
      redirectUri,
      state: typeof state === 'string' ? state : null,
    });
    for (const name of ['response_type', 'scope', 'state', 'code_challenge', 'code_challenge_method']) {
      if (single(name) === null) return back('invalid_request', `${name} must be given once`);
    }
    const responseType = single('response_type');
    if (responseType === undefined) return back('invalid_request', 'response_type is required');
    if (responseType !== 'code')
      return back('unsupported_response_type', 'only response_type=code is supported');
    const scope = single('scope');
    if (!scope || scope.trim() === '') return back('invalid_scope', 'scope is required');
    const scopes = [...new Set(scope.split(' ').filter((s) => s !== ''))];
    const unknown = scopes.filter((s) => !isKnownScope(s));
    if (unknown.length > 0) return back('invalid_scope', `unknown scope: ${unknown.join(' ')}`);
    const challenge = single('code_challenge');
    const method = single('code_challenge_method');
    if (!challenge) return back('invalid_request', 'code_challenge is required (PKCE)');
    if (method !== 'S256') {
      return back('invalid_request', 'code_challenge_method must be S256 (plain is not supported)');
    }
    if (!PKCE_VALUE.test(challenge)) return back('invalid_request', 'code_challenge is malformed');
    return {
      ok: {
        clientId,
        redirectUri,
        scopes,
        state: typeof state === 'string' ? state : null,
        codeChallenge: challenge,
      },
    };
  }

  openConsent(request: AuthorizeRequest): { consentId: string; csrf: string } {
    const consentId = this.store.randomSecret(18);
    const csrf = this.store.randomSecret(18);
    this.consents.set(consentId, { request, csrf, expiresAt: this.store.clock.now() + CONSENT_TTL_MS });
    return { consentId, csrf };
  }

  /** Consumes a consent form; undefined when unknown, expired, or its CSRF field is wrong. */
  takeConsent(consentId: string, csrf: string): AuthorizeRequest | undefined {
    const pending = this.consents.get(consentId);
    if (!pending || pending.csrf !== csrf) return undefined;
    this.consents.delete(consentId);
    return pending.expiresAt > this.store.clock.now() ? pending.request : undefined;
  }

  /**
   * The code for what was consented to: the scopes asked, less those withheld
   * (by the control API, or left unticked on the page: `chosen`). Undefined
   * when that leaves none: nothing was granted.
   */
  issueCode(request: AuthorizeRequest, userId: string, chosen?: readonly string[]): string | undefined {
    const withheld = this.deps.withheldScopes?.() ?? [];
    const scopes = request.scopes.filter(
      (scope) => !withheld.includes(scope) && (chosen === undefined || chosen.includes(scope)),
    );
    if (scopes.length === 0) return undefined;
    const code = this.store.randomSecret();
    this.codes.set(sha256(code), {
      request: { ...request, scopes },
      userId,
      expiresAt: this.store.clock.now() + CODE_TTL_MS,
      grantId: null,
    });
    return code;
  }

  /** POST /oauth/token. Throws OAuthError. */
  token(form: Record<string, unknown>): TokenResponse {
    const params = new Map<string, string>();
    for (const [name, value] of Object.entries(form)) {
      if (typeof value !== 'string') throw new OAuthError('invalid_request', `${name} must be given once`);
      params.set(name, value);
    }
    const clientId = params.get('client_id');
    if (clientId !== DESKTOP_CLIENT.clientId) {
      throw new OAuthError(
        'invalid_client',
        clientId ? `unknown client ${clientId}` : 'client_id is required',
        401,
      );
    }
    const grantType = params.get('grant_type');
    if (grantType === 'authorization_code') return this.exchangeCode(params, clientId);
    if (grantType === 'refresh_token') return this.refresh(params, clientId);
    if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required');
    throw new OAuthError('unsupported_grant_type', `grant_type ${grantType} is not supported`);
  }

  /** Revokes a grant: all its access tokens and refresh tokens stop at once. */
  revokeGrant(grantId: string, reason: string): void {
    const grant = this.grants.get(grantId);
    if (!grant) return;
    grant.revoked = true;
    for (const tokenId of grant.accessTokenIds) this.store.revokeToken(tokenId, null, reason);
    for (const hash of grant.refreshHashes) this.refreshTokens.delete(hash);
  }

  /**
   * An administrator narrows what was granted to the app: every grant so far
   * loses `scopes`, in its access tokens now and in those its refreshes issue.
   * A consent from now on may grant them again. Returns the grants narrowed.
   */
  withdrawScopes(scopes: readonly string[]): number {
    let narrowed = 0;
    for (const grant of this.grants.values()) {
      if (grant.revoked || !grant.scopes.some((scope) => scopes.includes(scope))) continue;
      grant.scopes = grant.scopes.filter((scope) => !scopes.includes(scope));
      for (const tokenId of grant.accessTokenIds) this.store.withdrawScopes(tokenId, scopes);
      narrowed += 1;
    }
    return narrowed;
  }

  private exchangeCode(params: Map<string, string>, clientId: string): TokenResponse {
    const code = params.get('code');
    const redirectUri = params.get('redirect_uri');
    const verifier = params.get('code_verifier');
    if (!code) throw new OAuthError('invalid_request', 'code is required');
    if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
    if (!verifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE)');
    if (!PKCE_VALUE.test(verifier)) throw new OAuthError('invalid_request', 'code_verifier is malformed');
    const entry = this.codes.get(sha256(code));
    if (!entry) throw new OAuthError('invalid_grant', 'the authorization code is unknown');
    if (entry.grantId !== null) {
      // RFC 6749 §4.1.2: a code used twice revokes what it was exchanged for.
      this.revokeGrant(entry.grantId, 'authorization code reused');
      throw new OAuthError('invalid_grant', 'the authorization code was already used');
    }
    if (entry.expiresAt <= this.store.clock.now()) {
      this.codes.delete(sha256(code));
      throw new OAuthError('invalid_grant', 'the authorization code has expired');
    }
    if (entry.request.clientId !== clientId) {
      throw new OAuthError('invalid_grant', 'the authorization code was issued to another client');
    }
    if (entry.request.redirectUri !== redirectUri) {
      throw new OAuthError('invalid_grant', 'redirect_uri differs from the authorization request');
    }
    if (s256(verifier) !== entry.request.codeChallenge) {
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    }
    const grant: Grant = {
      grantId: `grant_${this.store.randomSecret(12)}`,
      clientId,
      userId: entry.userId,
      scopes: entry.request.scopes,
      accessTokenIds: [],
      refreshHashes: [],
      revoked: false,
    };
    this.grants.set(grant.grantId, grant);
    entry.grantId = grant.grantId;
    return this.issueTokens(grant, grant.scopes);
  }

  private refresh(params: Map<string, string>, clientId: string): TokenResponse {
    const refreshToken = params.get('refresh_token');
    if (!refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
    const entry = this.refreshTokens.get(sha256(refreshToken));
    const grant = entry ? this.grants.get(entry.grantId) : undefined;
    if (!entry || !grant || grant.revoked)
      throw new OAuthError('invalid_grant', 'the refresh token is unknown or revoked');
    if (grant.clientId !== clientId) {
      throw new OAuthError('invalid_grant', 'the refresh token was issued to another client');
    }
    if (entry.spent) {
      // RFC 9700 §4.14.2: a spent refresh token coming back means it leaked.
      this.revokeGrant(grant.grantId, 'refresh token reused');
      throw new OAuthError('invalid_grant', 'the refresh token was already used; the grant is revoked');
    }
    if (entry.expiresAt <= this.store.clock.now())
      throw new OAuthError('invalid_grant', 'the refresh token has expired');
    let scopes = grant.scopes;
    const scope = params.get('scope');
    if (scope !== undefined) {
      scopes = [...new Set(scope.split(' ').filter((s) => s !== ''))];
      const beyond = scopes.filter((s) => !grant.scopes.includes(s));
      if (scopes.length === 0 || beyond.length > 0) {
        throw new OAuthError('invalid_scope', `scope beyond the grant: ${beyond.join(' ') || '(empty)'}`);
      }
    }
    entry.spent = true;
    return this.issueTokens(grant, scopes);
  }

  private issueTokens(grant: Grant, scopes: string[]): TokenResponse {
    const member = this.store.lookupMember(grant.userId);
    if (!member || !member.is_active) {
      this.revokeGrant(grant.grantId, 'principal deactivated');
      throw new OAuthError('invalid_grant', 'the user of this grant is no longer active');
    }
    const now = this.store.clock.now();
    const { token, record } = this.store.mintToken({
      principalUserId: grant.userId,
      name: `${DESKTOP_CLIENT.name} (OAuth)`,
      kind: 'live',
      scopes,
      expiresAt: new Date(now + ACCESS_TOKEN_TTL_S * 1000).toISOString(),
      grantType: 'authorization_code',
      clientId: grant.clientId,
      createdBy: grant.userId,
    });
    grant.accessTokenIds.push(record.token_id);
    const refreshToken = REFRESH_PREFIX + this.store.randomSecret();
    const hash = sha256(refreshToken);
    grant.refreshHashes.push(hash);
    this.refreshTokens.set(hash, {
      grantId: grant.grantId,
      expiresAt: now + REFRESH_TOKEN_TTL_MS,
      spent: false,
    });
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_TTL_S,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
      org_id: this.store.orgId,
    };
  }
}

// The emulator's access tokens: minting, authenticating a bearer header, the
// scope implication rules and revocation. Only a token's SHA-256 is kept.
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../clock';
import { ProblemReply } from '../problem';

export interface Member {
  user_id: string;
  org_id: string;
  username: string;
  email: string;
  role: 'owner' | 'admin' | 'member';
  kind: 'user' | 'service_account';
  is_active: boolean;
}

export type TokenKind = 'live' | 'test';
export type GrantType = 'personal' | 'service_account' | 'authorization_code';
export type TokenStatus = 'active' | 'revoked' | 'expired';

/** The contract's `TokenCreated` without the one-time `token`. */
export interface TokenRecord {
  token_id: string;
  org_id: string;
  principal_user_id: string;
  principal_display: string | null;
  created_by: string;
  name: string;
  token_prefix: string;
  kind: TokenKind;
  grant_type: GrantType;
  client_id: string | null;
  scopes: string[];
  project_ids: string[] | null;
  expires_at: string | null;
  last_used_at: string | null;
  use_count: number;
  status: TokenStatus;
  revoked_at: string | null;
  revoked_by: string | null;
  revoke_reason: string | null;
  rotated_from: string | null;
  created_at: string;
  updated_at: string;
}

export interface AuthContext {
  tokenId: string;
  /** SHA-256 hex of the presented token: the rate-limit key. */
  tokenHash: string;
  kind: TokenKind;
  /** Expanded by the implication rules. */
  scopes: ReadonlySet<string>;
  projectIds: readonly string[] | null;
  principal: Member;
}

export interface MintTokenInput {
  principalUserId: string;
  name: string;
  kind?: TokenKind;
  scopes: string[];
  projectIds?: string[] | null;
  expiresAt?: string | null;
  grantType?: GrantType;
  clientId?: string | null;
  createdBy: string;
  rotatedFrom?: string | null;
  /** Mint under the service's earlier prefix, as tokens made before the rename were. */
  legacyPrefix?: boolean;
}

export interface IdentityStoreDeps {
  clock: Clock;
  orgId: string;
  lookupMember(userId: string): Member | undefined;
  /** Randomness for secrets and ids; tests may pin it. Default: node:crypto. */
  randomBytes?: (size: number) => Buffer;
}

/** Every scope the contract names (Authentication, Scopes). */
export const KNOWN_SCOPES = [
  'tasks:read',
  'tasks:write',
  'projects:read',
  'projects:write',
  'teams:read',
  'teams:write',
  'members:read',
  'org:read',
  'org:write',
  'webhooks:read',
  'webhooks:write',
  'admin',
] as const;
const knownScopes: ReadonlySet<string> = new Set(KNOWN_SCOPES);

export function isKnownScope(scope: string): boolean {
  return knownScopes.has(scope);
}

/**
 * The scopes a token really holds: `admin` implies every scope, `<ns>:write`
 * implies `<ns>:read`, and `org:read` implies `members:read` (so `org:write`
 * reaches `members:read` through `org:read`).
 */
export function expandScopes(granted: Iterable<string>): Set<string> {
  const out = new Set<string>();
  const add = (scope: string): void => {
    if (out.has(scope)) return;
    out.add(scope);
    if (scope === 'admin') KNOWN_SCOPES.forEach(add);
    else if (scope.endsWith(':write')) add(`${scope.slice(0, -':write'.length)}:read`);
    else if (scope === 'org:read') add('members:read');
  };
  for (const scope of granted) add(scope);
  return out;
}

/**
 * Refuses the request unless the token holds `scope`. `null` marks an internal
 * operation, which no token may call (contract, Scopes rule 3); `undefined`
 * (a route without `config.scope`) accepts any valid token, as `GET /v1/me`.
 */
export function requireScope(ctx: AuthContext, scope: string | null | undefined): void {
  if (scope === undefined) return;
  if (scope !== null && ctx.scopes.has(scope)) return;
  throw new ProblemReply(
    403,
    'insufficient-scope',
    'Insufficient scope',
    scope === null
      ? 'This operation is not available to access tokens.'
      : `This operation needs the ${scope} scope.`,
    [{ msg: 'missing scope', required: scope }],
  );
}

// Current prefixes, and those the service used before its rename on
// 2026-10-03 (contract, Versioning: old tokens keep authenticating). The former
// name is not given; `tsk_` (the product tracked tasks) stands in for it.
const PREFIXES: Record<TokenKind, string> = { live: 'svc_live_', test: 'svc_test_' };
export const LEGACY_PREFIXES: Record<TokenKind, string> = { live: 'tsk_live_', test: 'tsk_test_' };
const acceptedPrefixes: [string, TokenKind][] = [
  [PREFIXES.live, 'live'],
  [PREFIXES.test, 'test'],
  [LEGACY_PREFIXES.live, 'live'],
  [LEGACY_PREFIXES.test, 'test'],
];
/** What follows a prefix: base64url, as we mint it (32 random bytes give 43 characters). */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{20,200}$/;

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

interface StoredToken {
  hash: string;
  record: TokenRecord;
}

const tokenInvalid = (detail: string): ProblemReply =>
  new ProblemReply(401, 'token-invalid', 'Token invalid', detail);

export class IdentityStore {
  readonly clock: Clock;
  readonly orgId: string;
  private readonly lookup: (userId: string) => Member | undefined;
  private readonly random: (size: number) => Buffer;
  private readonly byId = new Map<string, StoredToken>();
  private readonly byHash = new Map<string, StoredToken>();

  constructor(deps: IdentityStoreDeps) {
    this.clock = deps.clock;
    this.orgId = deps.orgId;
    this.lookup = (userId) => deps.lookupMember(userId);
    this.random = deps.randomBytes ?? randomBytes;
  }

  lookupMember(userId: string): Member | undefined {
    return this.lookup(userId);
  }

  /** A fresh base64url secret, also used by OAuth for codes and refresh tokens. */
  randomSecret(bytes = 32): string {
    return this.random(bytes).toString('base64url');
  }

  mintToken(input: MintTokenInput): { token: string; record: TokenRecord } {
    const kind = input.kind ?? 'live';
    const prefix = (input.legacyPrefix ? LEGACY_PREFIXES : PREFIXES)[kind];
    const token = prefix + this.randomSecret();
    const now = this.nowIso();
    const principal = this.lookup(input.principalUserId);
    const record: TokenRecord = {
      token_id: `tok_${this.random(12).toString('hex')}`,
      org_id: this.orgId,
      principal_user_id: input.principalUserId,
      principal_display: principal?.username ?? null,
      created_by: input.createdBy,
      name: input.name,
      token_prefix: token.slice(0, prefix.length + 4),
      kind,
      grant_type: input.grantType ?? (principal?.kind === 'service_account' ? 'service_account' : 'personal'),
      client_id: input.clientId ?? null,
      scopes: [...input.scopes],
      project_ids: input.projectIds ? [...input.projectIds] : null,
      expires_at: input.expiresAt ?? null,
      last_used_at: null,
      use_count: 0,
      status: 'active',
      revoked_at: null,
      revoked_by: null,
      revoke_reason: null,
      rotated_from: input.rotatedFrom ?? null,
      created_at: now,
      updated_at: now,
    };
    const stored: StoredToken = { hash: sha256Hex(token), record };
    this.byId.set(record.token_id, stored);
    this.byHash.set(stored.hash, stored);
    return { token, record: this.snapshot(record) };
  }

  /**
   * Resolves an `Authorization` header to the token's context, counting the
   * use. Throws 401 `token-invalid` (missing, malformed, unknown, principal gone
   * or deactivated), `token-revoked`, or `token-expired`.
   */
  authenticate(authorizationHeader: string | undefined): AuthContext {
    if (authorizationHeader === undefined || authorizationHeader === '') {
      throw tokenInvalid('An Authorization: Bearer header is required.');
    }
    const match = /^Bearer +(\S+) *$/i.exec(authorizationHeader);
    const token = match?.[1];
    if (token === undefined) throw tokenInvalid('The Authorization header must be `Bearer <token>`.');
    const prefixed = acceptedPrefixes.find(([prefix]) => token.startsWith(prefix));
    if (!prefixed || !SECRET_PATTERN.test(token.slice(prefixed[0].length))) {
      throw tokenInvalid('The token is malformed.');
    }
    const hash = sha256Hex(token);
    const stored = this.byHash.get(hash);
    if (!stored) throw tokenInvalid('The token is unknown.');
    const record = stored.record;
    // A revoked token stays revoked whether or not it has also expired.
    if (record.status === 'revoked') {
      throw new ProblemReply(401, 'token-revoked', 'Token revoked', 'The token has been revoked.');
    }
    if (this.statusOf(record) === 'expired') {
      throw new ProblemReply(
        401,
        'token-expired',
        'Token expired',
        `The token expired at ${record.expires_at}.`,
      );
    }
    const principal = this.lookup(record.principal_user_id);
    if (!principal || !principal.is_active || principal.org_id !== record.org_id) {
      throw tokenInvalid('The token’s principal no longer exists or is deactivated.');
    }
    record.last_used_at = this.nowIso();
    record.use_count += 1;
    return {
      tokenId: record.token_id,
      tokenHash: hash,
      kind: record.kind,
      scopes: expandScopes(record.scopes),
      projectIds: record.project_ids ? [...record.project_ids] : null,
      principal,
    };
  }

  /** A copy of one record (status brought up to date with the clock), or undefined. */
  getToken(tokenId: string): TokenRecord | undefined {
    const stored = this.byId.get(tokenId);
    return stored ? this.snapshot(stored.record) : undefined;
  }

  /** Every token of the organization, oldest first (ties by id). */
  listTokens(): TokenRecord[] {
    return [...this.byId.values()]
      .map((stored) => this.snapshot(stored.record))
      .sort((a, b) =>
        a.created_at === b.created_at
          ? a.token_id.localeCompare(b.token_id)
          : a.created_at.localeCompare(b.created_at),
      );
  }

  /** Revokes a token; revoking a revoked token changes nothing. Throws 404 when unknown. */
  revokeToken(tokenId: string, by: string | null, reason?: string): void {
    const stored = this.byId.get(tokenId);
    if (!stored) throw new ProblemReply(404, null, 'Not Found', `token ${tokenId} not found`);
    const record = stored.record;
    if (record.status === 'revoked') return;
    const now = this.nowIso();
    record.status = 'revoked';
    record.revoked_at = now;
    record.revoked_by = by;
    record.revoke_reason = reason ?? null;
    record.updated_at = now;
  }

  /**
   * Takes `scopes` away from a token (an administrator narrowing what it was
   * granted): its next request needing one is refused with insufficient-scope.
   * Throws 404 when unknown.
   */
  withdrawScopes(tokenId: string, scopes: readonly string[]): void {
    const stored = this.byId.get(tokenId);
    if (!stored) throw new ProblemReply(404, null, 'Not Found', `token ${tokenId} not found`);
    const record = stored.record;
    record.scopes = record.scopes.filter((scope) => !scopes.includes(scope));
    record.updated_at = this.nowIso();
  }

  /** Revokes every active token acting as a principal (service-account deactivation). */
  revokePrincipalTokens(principalUserId: string, by: string | null, reason: string): number {
    let count = 0;
    for (const { record } of this.byId.values()) {
      if (record.principal_user_id === principalUserId && record.status !== 'revoked') {
        this.revokeToken(record.token_id, by, reason);
        count += 1;
      }
    }
    return count;
  }

  /**
   * Replaces a token: the old one is revoked (reason `rotation`) and a new one
   * with the same principal, scopes, projects and expiry carries `rotated_from`.
   * Throws 404 when unknown, 409 when the token is no longer active.
   */
  rotateToken(tokenId: string, by: string): { token: string; record: TokenRecord } {
    const old = this.getToken(tokenId);
    if (!old) throw new ProblemReply(404, null, 'Not Found', `token ${tokenId} not found`);
    if (old.status !== 'active') {
      throw new ProblemReply(
        409,
        null,
        'Conflict',
        `token ${tokenId} is ${old.status} and cannot be rotated`,
      );
    }
    this.revokeToken(tokenId, by, 'rotation');
    return this.mintToken({
      principalUserId: old.principal_user_id,
      name: old.name,
      kind: old.kind,
      scopes: old.scopes,
      projectIds: old.project_ids,
      expiresAt: old.expires_at,
      grantType: old.grant_type,
      clientId: old.client_id,
      createdBy: by,
      rotatedFrom: old.token_id,
      legacyPrefix: false,
    });
  }

  /** Expiry is read from the clock, never stored, so a test's clock may move either way. */
  private statusOf(record: TokenRecord): TokenStatus {
    if (
      record.status === 'active' &&
      record.expires_at !== null &&
      Date.parse(record.expires_at) <= this.clock.now()
    ) {
      return 'expired';
    }
    return record.status;
  }

  private snapshot(record: TokenRecord): TokenRecord {
    return {
      ...record,
      scopes: [...record.scopes],
      project_ids: record.project_ids ? [...record.project_ids] : null,
      status: this.statusOf(record),
    };
  }

  private nowIso(): string {
    return new Date(this.clock.now()).toISOString();
  }
}

// Identity routes of the emulator: /v1/me, token minting, listing, rotation and
// revocation, and the OAuth endpoints. Authentication and the scope check run in
// the server's hook, which reads each route's `config.scope`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ProblemReply, type ProblemErrorItem } from '../problem';
import {
  type AuthContext,
  type IdentityStore,
  type TokenRecord,
  KNOWN_SCOPES,
  requireScope,
} from './identity-store';
import { OAuthAuthority, registerOAuthRoutes } from './oauth';

export interface IdentityRouteDeps {
  store: IdentityStore;
  /** The member who signs in and consents on the OAuth page: the emulator's main member. */
  consentUserId: string;
  /** GET /oauth/authorize answers the redirect at once; a function lets a control API flip it. */
  oauthAutoApprove?: boolean | (() => boolean);
}

/** The context the server's hook put on the request; a route reached without it is a wiring bug. */
function authOf(request: FastifyRequest): AuthContext {
  const auth = (request as FastifyRequest & { auth?: AuthContext }).auth;
  if (!auth)
    throw new ProblemReply(401, 'token-invalid', 'Token invalid', 'The request was not authenticated.');
  return auth;
}

const mintBodySchema = z.object({
  org_id: z.string().min(1).max(1000),
  name: z.string().min(1).max(100),
  kind: z.enum(['live', 'test']).optional(),
  scopes: z.array(z.enum(KNOWN_SCOPES)).min(1),
  project_ids: z.array(z.string().min(1).max(1000)).min(1).nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  // The contract says uuid; the emulator's member ids are whatever the seed made, so any id is looked up.
  principal_user_id: z.string().min(1).max(1000).nullable().optional(),
});

function validationProblem(issues: readonly z.core.$ZodIssue[], where: 'body' | 'query'): ProblemReply {
  const errors: ProblemErrorItem[] = issues.map((issue) => ({
    loc: [where, ...issue.path.map((part) => (typeof part === 'number' ? part : String(part)))],
    msg: issue.message,
    type: issue.code === 'invalid_type' && issue.input === undefined ? 'missing' : issue.code,
  }));
  return new ProblemReply(422, 'validation', 'Validation failed', errors, errors);
}

function fieldProblem(loc: (string | number)[], msg: string): ProblemReply {
  const errors: ProblemErrorItem[] = [{ loc, msg, type: 'value_error' }];
  return new ProblemReply(422, 'validation', 'Validation failed', errors, errors);
}

const forbidden = (detail: string): ProblemReply => new ProblemReply(403, null, 'Forbidden', detail);

const tokenNotFound = (tokenId: string): ProblemReply =>
  new ProblemReply(404, null, 'Not Found', `token ${tokenId} not found`);

const isPrivileged = (ctx: AuthContext): boolean =>
  ctx.principal.role === 'owner' || ctx.principal.role === 'admin';

/** Owners and admins manage every token; others only tokens acting as them or made by them. */
function requireTokenAccess(ctx: AuthContext, record: TokenRecord): void {
  const own =
    record.principal_user_id === ctx.principal.user_id || record.created_by === ctx.principal.user_id;
  if (!own && !isPrivileged(ctx)) {
    throw forbidden('Only an owner or admin may manage another member’s token.');
  }
}

// Lists: `{data, next_cursor}`, default limit 100 capped at 1000 (contract, Limits).
const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

interface TokenCursor {
  after: [string, string];
  order: 'asc' | 'desc';
}

function invalidParameter(name: string, msg: string, allowed?: readonly string[]): ProblemReply {
  const item: ProblemErrorItem = { loc: ['query', name], msg, ...(allowed ? { allowed } : {}) };
  return new ProblemReply(400, 'invalid-parameter', 'Invalid parameter', msg, [item]);
}

function singleQuery(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidParameter(name, `${name} must be given once`);
  return value;
}

function parseCursor(raw: string): TokenCursor {
  try {
    const parsed = z
      .object({ after: z.tuple([z.string(), z.string()]), order: z.enum(['asc', 'desc']) })
      .parse(JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')));
    return parsed;
  } catch {
    throw invalidParameter('cursor', 'cursor is not one this list gave out');
  }
}

const encodeCursor = (cursor: TokenCursor): string =>
  Buffer.from(JSON.stringify(cursor)).toString('base64url');

function listTokensPage(
  store: IdentityStore,
  query: Record<string, unknown>,
): { data: TokenRecord[]; next_cursor: string | null } {
  const limitText = singleQuery(query, 'limit');
  let limit = DEFAULT_LIMIT;
  if (limitText !== undefined) {
    if (!/^\d+$/.test(limitText) || Number(limitText) < 1) {
      const errors: ProblemErrorItem[] = [
        { loc: ['query', 'limit'], msg: 'limit must be an integer >= 1', type: 'greater_than_equal' },
      ];
      throw new ProblemReply(422, 'validation', 'Validation failed', errors, errors);
    }
    limit = Math.min(Number(limitText), MAX_LIMIT);
  }
  const sortBy = singleQuery(query, 'sort_by');
  if (sortBy !== undefined && sortBy !== 'created_at') {
    throw invalidParameter('sort_by', `sort_by ${sortBy} is not accepted`, ['created_at']);
  }
  const order = singleQuery(query, 'sort_order') ?? 'asc';
  if (order !== 'asc' && order !== 'desc') {
    throw invalidParameter('sort_order', `sort_order ${order} is not accepted`, ['asc', 'desc']);
  }
  const cursorText = singleQuery(query, 'cursor');
  const cursor = cursorText === undefined ? undefined : parseCursor(cursorText);
  if (cursor && cursor.order !== order)
    throw invalidParameter('cursor', 'cursor belongs to the other sort order');

  const all = store.listTokens();
  if (order === 'desc') all.reverse();
  const key = (t: TokenRecord): [string, string] => [t.created_at, t.token_id];
  const after = (a: [string, string], b: [string, string]): boolean => {
    const cmp = a[0] === b[0] ? a[1].localeCompare(b[1]) : a[0].localeCompare(b[0]);
    return order === 'asc' ? cmp > 0 : cmp < 0;
  };
  const rest = cursor ? all.filter((t) => after(key(t), cursor.after)) : all;
  const data = rest.slice(0, limit);
  const last = data.at(-1);
  return {
    data,
    next_cursor: rest.length > limit && last ? encodeCursor({ after: key(last), order }) : null,
  };
}

export function registerIdentityRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  const { store } = deps;

  app.get('/v1/me', (request) => {
    const { principal } = authOf(request);
    return {
      user_id: principal.user_id,
      username: principal.username,
      email: principal.email,
      org_id: principal.org_id,
    };
  });

  app.post('/v1/tokens', { config: { scope: 'org:write' } }, (request) => {
    const ctx = authOf(request);
    const parsed = mintBodySchema.safeParse(request.body ?? undefined);
    if (!parsed.success) throw validationProblem(parsed.error.issues, 'body');
    const body = parsed.data;
    if (body.org_id !== store.orgId)
      throw forbidden(`This token does not reach organization ${body.org_id}.`);
    // A token cannot mint more than it holds, nor reach projects it cannot.
    for (const scope of body.scopes) requireScope(ctx, scope);
    const projectIds = body.project_ids ?? null;
    if (ctx.projectIds !== null) {
      const outside =
        projectIds === null ? ['(all projects)'] : projectIds.filter((p) => !ctx.projectIds?.includes(p));
      if (outside.length > 0)
        throw forbidden(`This token is restricted and cannot reach ${outside.join(', ')}.`);
    }
    if (body.expires_at != null && Date.parse(body.expires_at) <= store.clock.now()) {
      throw fieldProblem(['body', 'expires_at'], 'expires_at must be in the future');
    }
    let principalUserId = ctx.principal.user_id;
    if (body.principal_user_id != null && body.principal_user_id !== ctx.principal.user_id) {
      const principal = store.lookupMember(body.principal_user_id);
      if (!principal || principal.org_id !== store.orgId) {
        throw fieldProblem(['body', 'principal_user_id'], 'no such member of the organization');
      }
      if (principal.kind !== 'service_account') {
        throw forbidden('A token may act only as its creator or as a service account of the organization.');
      }
      if (!isPrivileged(ctx)) throw forbidden('Only an owner or admin may mint a service account’s token.');
      if (!principal.is_active)
        throw fieldProblem(['body', 'principal_user_id'], 'the service account is deactivated');
      principalUserId = principal.user_id;
    }
    const { token, record } = store.mintToken({
      principalUserId,
      name: body.name,
      kind: body.kind ?? 'live',
      scopes: [...new Set(body.scopes)],
      projectIds,
      expiresAt: body.expires_at == null ? null : new Date(body.expires_at).toISOString(),
      createdBy: ctx.principal.user_id,
    });
    return { ...record, token };
  });

  app.get('/v1/tokens', { config: { scope: 'org:read' } }, (request) => {
    authOf(request);
    return listTokensPage(store, request.query as Record<string, unknown>);
  });

  app.post<{ Params: { token_id: string } }>(
    '/v1/tokens/:token_id/rotate',
    { config: { scope: 'org:write' } },
    (request) => {
      const ctx = authOf(request);
      const record = store.getToken(request.params.token_id);
      if (!record) throw tokenNotFound(request.params.token_id);
      requireTokenAccess(ctx, record);
      const { token, record: fresh } = store.rotateToken(record.token_id, ctx.principal.user_id);
      return { ...fresh, token };
    },
  );

  app.delete<{ Params: { token_id: string }; Querystring: { reason?: string } }>(
    '/v1/tokens/:token_id',
    { config: { scope: 'org:write' } },
    (request) => {
      const ctx = authOf(request);
      const record = store.getToken(request.params.token_id);
      if (!record) throw tokenNotFound(request.params.token_id);
      requireTokenAccess(ctx, record);
      const reason = typeof request.query.reason === 'string' ? request.query.reason : undefined;
      store.revokeToken(record.token_id, ctx.principal.user_id, reason);
      return { ok: true };
    },
  );

  registerOAuthRoutes(
    app,
    new OAuthAuthority({
      store,
      consentUserId: deps.consentUserId,
      ...(deps.oauthAutoApprove !== undefined ? { autoApprove: deps.oauthAutoApprove } : {}),
    }),
  );
}

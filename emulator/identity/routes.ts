// Identity routes of the emulator: /v1/me, token minting, listing, rotation and
// revocation, and the OAuth endpoints. Authentication and the scope check run in
// the server's hook, which reads each route's `config.scope`.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { fieldProblem, parseOr422, text } from '../body-validation';
import { sendJson } from '../json-reply';
import {
  CursorCodec,
  compareCodePoints,
  pageOf,
  parseLimit,
  parseOffset,
  parseSort,
  queryPairs,
} from '../paging';
import { ProblemReply } from '../problem';
import {
  type AuthContext,
  type IdentityStore,
  type TokenRecord,
  KNOWN_SCOPES,
  requireScope,
} from './identity-store';
import { OAuthAuthority } from './oauth';
import { registerOAuthRoutes } from './oauth-routes';

export interface IdentityRouteDeps {
  store: IdentityStore;
  /** The member who signs in and consents on the OAuth page: the emulator's main member. */
  consentUserId: string;
  /** GET /oauth/authorize answers the redirect at once; a function lets a control API flip it. */
  oauthAutoApprove?: boolean | (() => boolean);
  /** Scopes a consent grants none of (a control API sets them). */
  oauthWithheldScopes?: () => readonly string[];
  /** The authorization server to answer with (the emulator keeps its own, to narrow grants); else one made from the above. */
  oauth?: OAuthAuthority;
}

/** The context the server's hook put on the request; a route reached without it is a wiring bug. */
function authOf(request: FastifyRequest): AuthContext {
  const auth = (request as FastifyRequest & { auth?: AuthContext }).auth;
  if (!auth)
    throw new ProblemReply(401, 'token-invalid', 'Token invalid', 'The request was not authenticated.');
  return auth;
}

const mintBodySchema = z.object({
  org_id: text(1, 1000),
  name: text(1, 100),
  kind: z.enum(['live', 'test']).optional(),
  scopes: z.array(z.enum(KNOWN_SCOPES)).min(1),
  project_ids: z.array(text(1, 1000)).min(1).nullable().optional(),
  expires_at: z.iso.datetime({ offset: true }).nullable().optional(),
  // The contract says uuid; the emulator's member ids are whatever the seed made, so any id is looked up.
  principal_user_id: text(1, 1000).nullable().optional(),
});

const forbidden = (detail: string): ProblemReply => new ProblemReply(403, null, 'Forbidden', detail);

const isPrivileged = (ctx: AuthContext): boolean =>
  ctx.principal.role === 'owner' || ctx.principal.role === 'admin';

/**
 * The token the path names (404), when the caller may manage it: owners and
 * admins manage every token, others only tokens acting as them or made by them (403).
 */
function manageableToken(store: IdentityStore, ctx: AuthContext, tokenId: string): TokenRecord {
  const record = store.getToken(tokenId);
  if (!record) throw new ProblemReply(404, null, 'Not Found', `token ${tokenId} not found`);
  const own =
    record.principal_user_id === ctx.principal.user_id || record.created_by === ctx.principal.user_id;
  if (!own && !isPrivileged(ctx)) {
    throw forbidden('Only an owner or admin may manage another member’s token.');
  }
  return record;
}

/** Contract, Limits: the general default page size. */
const DEFAULT_LIMIT = 100;

function listTokensPage(
  store: IdentityStore,
  cursors: CursorCodec,
  url: string,
): { data: TokenRecord[]; next_cursor: string | null } {
  const params = queryPairs(url);
  const limit = parseLimit(params.get('limit'), DEFAULT_LIMIT);
  const { sortOrder } = parseSort(params, ['created_at'], 'created_at');
  const queryKey = `tokens:${sortOrder}`;
  const cursor = params.get('cursor');
  const after = cursor === null ? null : cursors.decode(cursor, queryKey);
  const page = pageOf(store.listTokens(), {
    order: sortOrder,
    limit,
    after,
    offset: cursor === null ? parseOffset(params.get('offset')) : 0,
    positionOf: (t) => ({ value: t.created_at, id: t.token_id }),
    compareToPosition: (t, p) =>
      compareCodePoints(t.created_at, String(p.value)) || compareCodePoints(t.token_id, p.id),
  });
  return {
    data: page.items,
    next_cursor: page.next === undefined ? null : cursors.encode(queryKey, page.next),
  };
}

export function registerIdentityRoutes(app: FastifyInstance, deps: IdentityRouteDeps): void {
  const { store } = deps;
  const cursors = new CursorCodec();

  app.get('/v1/me', { config: { operationId: 'me' } }, (request, reply) => {
    const { principal } = authOf(request);
    return sendJson(request, reply, 200, {
      user_id: principal.user_id,
      username: principal.username,
      email: principal.email,
      org_id: principal.org_id,
    });
  });

  app.post(
    '/v1/tokens',
    { config: { scope: 'org:write', operationId: 'tokens.create' } },
    (request, reply) => {
      const ctx = authOf(request);
      const body = parseOr422(mintBodySchema, request.body, 'body');
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
      return sendJson(request, reply, 200, { ...record, token });
    },
  );

  app.get('/v1/tokens', { config: { scope: 'org:read', operationId: 'tokens.list' } }, (request, reply) => {
    authOf(request);
    return sendJson(request, reply, 200, listTokensPage(store, cursors, request.url));
  });

  app.post<{ Params: { token_id: string } }>(
    '/v1/tokens/:token_id/rotate',
    { config: { scope: 'org:write', operationId: 'tokens.rotate' } },
    (request, reply) => {
      const ctx = authOf(request);
      const record = manageableToken(store, ctx, request.params.token_id);
      const { token, record: fresh } = store.rotateToken(record.token_id, ctx.principal.user_id);
      return sendJson(request, reply, 200, { ...fresh, token });
    },
  );

  app.delete<{ Params: { token_id: string }; Querystring: { reason?: string } }>(
    '/v1/tokens/:token_id',
    { config: { scope: 'org:write', operationId: 'tokens.revoke' } },
    (request, reply) => {
      const ctx = authOf(request);
      const record = manageableToken(store, ctx, request.params.token_id);
      const reason = typeof request.query.reason === 'string' ? request.query.reason : undefined;
      store.revokeToken(record.token_id, ctx.principal.user_id, reason);
      return sendJson(request, reply, 200, { ok: true });
    },
  );

  registerOAuthRoutes(
    app,
    deps.oauth ??
      new OAuthAuthority({
        store,
        consentUserId: deps.consentUserId,
        ...(deps.oauthAutoApprove !== undefined ? { autoApprove: deps.oauthAutoApprove } : {}),
        ...(deps.oauthWithheldScopes !== undefined ? { withheldScopes: deps.oauthWithheldScopes } : {}),
      }),
  );
}

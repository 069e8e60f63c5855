// What every route of the emulator reaches: the data, the identity store, the
// caches, the fault plan and the limits. One per running emulator.
import type { LoopbackHostGuard } from './loopback-host-guard';
import type { FastifyRequest } from 'fastify';
import type { Clock } from './clock';
import type { FaultPlan } from './faults';
import type { IdempotencyStore } from './idempotency';
import type { AuthContext, IdentityStore } from './identity/identity-store';
import type { OAuthAuthority } from './identity/oauth';
import { type CursorCodec, queryPairs } from './paging';
import { ProblemReply } from './problem';
import type { RateLimiter } from './rate-limit';
import { type EmulatorStore, type Viewer, viewerOf } from './store';
import type { TaskListEngine } from './task-list';
import type { AttachmentStore } from './uploads/attachment-store';
import type { VarianceMode } from './variance';

export interface RequestLogEntry {
  at: number;
  method: string;
  path: string;
  query: string;
  status: number;
  requestId: string;
  ifNoneMatch: string | null;
  ifMatch: string | null;
  idempotencyKey: string | null;
}

export interface EmulatorContext {
  clock: Clock;
  store: EmulatorStore;
  /** Task attachments and their bytes (kept apart from the store: routes/attachments.ts). */
  attachments: AttachmentStore;
  identity: IdentityStore;
  tasks: TaskListEngine;
  cursors: CursorCodec;
  faults: FaultPlan;
  idempotency: IdempotencyStore;
  rateLimiter: RateLimiter;
  latencyMs: number;
  adminSecret: string;
  requestLog: RequestLogEntry[];
  /** The OAuth authorization server: its grants, which the control may narrow. */
  oauth: OAuthAuthority;
  oauthAutoApprove: boolean;
  /** Scopes the OAuth consent grants none of, whatever is asked (a narrower grant, as a person may choose). */
  oauthWithheldScopes: string[];
  /** An error no route expected (answered 500): where it is told. */
  reportUnexpected: (error: unknown) => void;
  /** Variance mode (null: the emulator answers as it always has). */
  variance: VarianceMode | null;
  /** The hosts and origins answered (EmulatorOptions.answerOnlyOwnHost); null: any. */
  hostGuard: LoopbackHostGuard | null;
}

export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth)
    throw new ProblemReply(401, 'token-invalid', 'Token invalid', 'The request was not authenticated.');
  return request.auth;
}

/** The caller as the data sees them: their member record and their token's project restriction. */
export function viewerFor(ctx: EmulatorContext, request: FastifyRequest): Viewer {
  const auth = authOf(request);
  const member = ctx.store.members.get(auth.principal.user_id);
  if (!member)
    throw new ProblemReply(401, 'token-invalid', 'Token invalid', 'The token’s principal is gone.');
  return viewerOf(member, auth.projectIds);
}

/** The query of an organization's list: its pairs, its `org_id` (when given) the caller's own, and who asks. */
export function orgListRequest(
  ctx: EmulatorContext,
  request: FastifyRequest,
): { params: URLSearchParams; viewer: Viewer } {
  const params = queryPairs(request.url);
  requireOwnOrg(ctx, params.get('org_id'), ['query', 'org_id']);
  return { params, viewer: viewerFor(ctx, request) };
}

/** `org_id` in a path or query must be the caller's organization. */
export function requireOwnOrg(
  ctx: EmulatorContext,
  orgId: string | null | undefined,
  loc: (string | number)[],
): void {
  if (orgId === null || orgId === undefined) return;
  if (orgId !== ctx.store.org.org_id) {
    throw new ProblemReply(403, null, 'Forbidden', `You are not a member of organization ${orgId}.`, [
      { loc, msg: 'not a member of this organization', type: 'forbidden' },
    ]);
  }
}

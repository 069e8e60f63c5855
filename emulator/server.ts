// The emulator's Fastify app: request ids, the one hook that authenticates,
// rate-limits and checks scopes (in the contract's order), fault injection,
// Idempotency-Key handling, and one error handler that answers every error —
// ours, identity's and Fastify's own (404, bad JSON, wrong media type) — as
// application/problem+json.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { fieldProblem } from './body-validation';
import { registerControlRoutes } from './control-routes';
import type { EmulatorContext } from './emulator-context';
import { IdempotentReplay, requestFingerprint, validateIdempotencyKey } from './idempotency';
import { type AuthContext, requireScope } from './identity/identity-store';
import { registerIdentityRoutes } from './identity/routes';
import { pathOf } from './json-reply';
import { collectRoutes, registerOpenApiRoute } from './openapi';
import { invalidParameter, queryPairs } from './paging';
import { ProblemReply } from './problem';
import { type RateState, rateLimitHeaders, rateLimited } from './rate-limit';
import { registerAttachmentRoutes } from './routes/attachments';
import { registerCollectionRoutes } from './routes/collections';
import { registerGoalRoutes } from './routes/goals';
import { registerMilestoneRoutes } from './routes/milestones';
import { registerSectionRoutes } from './routes/sections';
import { registerSprintRoutes } from './routes/sprints';
import { registerTaskActivityRoutes } from './routes/task-activity';
import { registerTaskRoutes } from './routes/tasks';
import { registerTeamRoutes } from './routes/teams';
import { registerViewRoutes } from './routes/views';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on authenticated `/v1` routes. */
    auth: AuthContext | null;
    rateState: RateState | null;
    /** The Idempotency-Key registered for this request (scope-qualified), to record or release its answer. */
    idempotencyScope: string | null;
    /** Variance mode answers If-None-Match itself, after rendering (the route never sees it). */
    varianceIfNoneMatch: string | null;
  }
  interface FastifyContextConfig {
    /** Scope the route needs; `null`: internal, refused to every token; absent: any valid token. */
    scope?: string | null;
    /** A create honouring Idempotency-Key. */
    idempotent?: boolean;
    /** The contract's operation name, for the OpenAPI description. */
    operationId?: string;
    deprecated?: boolean;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);

function isApiPath(path: string): boolean {
  return path.startsWith('/v1/') && path !== '/v1/health';
}

function isControlPath(path: string): boolean {
  return path === '/_emulator' || path.startsWith('/_emulator/');
}

function problemOfError(error: unknown, reportUnexpected: (error: unknown) => void): ProblemReply {
  if (error instanceof ProblemReply) return error;
  const e = error as { code?: string; statusCode?: number; message?: string };
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ProblemReply(415, null, 'Unsupported Media Type', e.message ?? 'unsupported media type');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ProblemReply(413, null, 'Payload Too Large', 'The request body is too large.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return fieldProblem(['body'], 'the body is empty', 'missing');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ProblemReply(e.statusCode, null, 'Bad Request', e.message ?? 'bad request');
  }
  reportUnexpected(error);
  return new ProblemReply(500, 'internal', 'Internal server error', 'An unexpected error occurred.');
}

function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: ProblemReply): FastifyReply {
  for (const [name, value] of Object.entries(problem.headers)) reply.header(name, value);
  return reply
    .code(problem.status)
    .type('application/problem+json')
    .send(JSON.stringify(problem.body(pathOf(request.url), request.id)));
}

/** Writes the headers and part of the body, then destroys the socket (fault: connection dropped mid-body). */
function droppedMidBody(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
  const bytes =
    typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
  const socket = request.raw.socket;
  if (!bytes || bytes.length === 0) {
    socket.destroy();
    return payload;
  }
  reply.header('content-length', bytes.length);
  const part = bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2)));
  let sent = false;
  return new Readable({
    read() {
      if (sent) return;
      sent = true;
      this.push(part);
      // Let the part reach the socket, then cut it: the client sees a body shorter than Content-Length.
      setTimeout(() => socket.destroy(), 20);
    },
  });
}

export function buildServer(ctx: EmulatorContext): FastifyInstance {
  let requestCounter = 0;
  const requestIdPrefix = randomBytes(3).toString('hex');
  const app = Fastify({
    logger: false,
    bodyLimit: 4 * 1024 * 1024,
    genReqId: () => `req_${requestIdPrefix}${(++requestCounter).toString(36).padStart(6, '0')}`,
    // Idle keep-alive connections must not hold up stop().
    forceCloseConnections: true,
  });
  collectRoutes(app);
  app.decorateRequest('auth', null);
  app.decorateRequest('rateState', null);
  app.decorateRequest('idempotencyScope', null);
  app.decorateRequest('varianceIfNoneMatch', null);

  app.removeContentTypeParser('application/json');
  app.addContentTypeParser(
    ['application/json', 'application/merge-patch+json'],
    { parseAs: 'string' },
    (_request, body, done) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') return done(null, undefined);
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        done(
          fieldProblem(['body'], `the body is not valid JSON: ${(error as Error).message}`, 'json_invalid'),
          undefined,
        );
      }
    },
  );

  // Before anything else, the demo's emulator answers only requests meant for it (loopback-host-guard.ts).
  app.addHook('onRequest', (request, _reply, done) => {
    const refusal = ctx.hostGuard?.refusal(request.headers.host, request.headers.origin) ?? null;
    done(refusal === null ? undefined : new ProblemReply(403, null, 'Not answered here', refusal));
  });

  // Authenticate → rate limit → scope → test-token write check (emulator-interface.md).
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-request-id', request.id);
    const path = pathOf(request.url);
    if (isControlPath(path)) return;
    if (ctx.variance && path.startsWith('/v1/'))
      request.varianceIfNoneMatch = ctx.variance.beforeRoute(request.headers) ?? null;
    const { live, test } = ctx.rateLimiter.config;
    if (!isApiPath(path)) {
      const taken = ctx.rateLimiter.take(`address:${request.ip}`, live);
      request.rateState = taken.state;
      if (!taken.allowed) throw rateLimited(taken.state.resetSeconds, 'Too many requests from this address.');
      return;
    }
    let auth: AuthContext;
    try {
      auth = ctx.identity.authenticate(request.headers.authorization);
    } catch (error) {
      request.rateState = ctx.rateLimiter.take(`address:${request.ip}`, live).state;
      throw error;
    }
    request.auth = auth;
    const taken = ctx.rateLimiter.take(`token:${auth.tokenHash}`, auth.kind === 'test' ? test : live);
    request.rateState = taken.state;
    if (!taken.allowed) {
      throw rateLimited(
        taken.state.resetSeconds,
        `This token may make ${taken.state.limit} requests a minute.`,
      );
    }
    requireScope(auth, request.routeOptions.config.scope);
    if (auth.kind === 'test' && !READ_METHODS.has(request.method)) {
      throw new ProblemReply(
        403,
        'test-token-read-only',
        'Test token is read-only',
        'A svc_test_ token cannot write.',
      );
    }
  });

  // Injected faults, then Idempotency-Key (after the body is parsed). A
  // synchronous hook: what it refuses it throws, and Fastify answers through the
  // error handler.
  app.addHook('preHandler', (request, _reply, done) => {
    const path = pathOf(request.url);
    if (isControlPath(path)) return done();
    if (ctx.faults.take('server-error', request.method, path, request.url)) {
      throw new ProblemReply(500, 'internal', 'Internal server error', 'Injected fault: the service failed.');
    }
    const burst = ctx.faults.take('rate-limit-burst', request.method, path, request.url);
    if (burst) throw rateLimited(burst.retryAfterSeconds ?? 1, 'Injected fault: a burst of 429s.');
    if (
      queryPairs(request.url).has('cursor') &&
      ctx.faults.take('reject-cursor', request.method, path, request.url)
    ) {
      throw invalidParameter('cursor', 'cursor is no longer accepted: start over');
    }
    const key = request.headers['idempotency-key'];
    if (request.routeOptions.config.idempotent && key !== undefined && request.auth) {
      const keyText = Array.isArray(key) ? key.join(',') : key;
      validateIdempotencyKey(keyText);
      const scopeKey = `${request.auth.principal.user_id}\u0000${keyText}`;
      const found = ctx.idempotency.begin(
        scopeKey,
        requestFingerprint(request.method, request.url, request.body),
      );
      if (found) throw new IdempotentReplay(found.replay);
      request.idempotencyScope = scopeKey;
    }
    done();
  });

  // A request a test holds (faults.hold) waits here, after its checks and before its handler.
  app.addHook('preHandler', async (request) => {
    const path = pathOf(request.url);
    if (!isControlPath(path)) await ctx.faults.held(request.method, path);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const path = pathOf(request.url);
    if (isControlPath(path)) return payload;
    const delay =
      ctx.latencyMs + ctx.faults.latencyFor(request.method, path) + (ctx.variance?.delayMs(path) ?? 0);
    if (delay > 0) await sleep(delay);
    if (request.rateState)
      for (const [name, value] of Object.entries(rateLimitHeaders(request.rateState)))
        reply.header(name, value);
    if (request.idempotencyScope !== null) {
      const scopeKey = request.idempotencyScope;
      request.idempotencyScope = null;
      if (reply.statusCode >= 200 && reply.statusCode < 300) {
        const headers: Record<string, string> = {};
        for (const name of ['content-type', 'etag', 'location']) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        ctx.idempotency.finish(scopeKey, {
          status: reply.statusCode,
          headers,
          body: typeof payload === 'string' || Buffer.isBuffer(payload) ? payload : '',
        });
      } else {
        ctx.idempotency.abandon(scopeKey);
      }
    }
    const idempotencyKey = request.headers['idempotency-key'];
    // Variance renders after the Idempotency-Key kept the route's own answer: a replay is rendered alike.
    if (
      ctx.variance &&
      path.startsWith('/v1/') &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      const contentType = String(reply.getHeader('content-type') ?? '');
      if (contentType.includes('json')) {
        const routeEtag = reply.getHeader('etag');
        const rendered = ctx.variance.render(
          {
            method: request.method,
            url: request.url,
            status: reply.statusCode,
            contentType,
            routeEtag: typeof routeEtag === 'string' ? routeEtag : null,
          },
          payload.toString(),
          request.varianceIfNoneMatch ?? undefined,
        );
        payload = rendered.payload;
        if (rendered.etag !== null) reply.header('etag', rendered.etag);
        if (rendered.notModified) {
          reply.code(304);
          reply.removeHeader('content-type');
          payload = null;
        }
      }
    }
    ctx.requestLog.push({
      at: ctx.clock.now(),
      method: request.method,
      path,
      query: request.url.slice(path.length),
      status: reply.statusCode,
      requestId: request.id,
      ifNoneMatch: request.varianceIfNoneMatch ?? request.headers['if-none-match'] ?? null,
      ifMatch: request.headers['if-match'] ?? null,
      idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
    });
    if (ctx.requestLog.length > 20_000) ctx.requestLog.splice(0, 10_000);
    const dropped =
      ctx.faults.take('drop-connection', request.method, path) ||
      ctx.variance?.dropAnswer({
        method: request.method,
        path,
        url: request.url,
        idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : null,
      });
    if (dropped) return droppedMidBody(request, reply, payload);
    return payload;
  });

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof IdempotentReplay) {
      for (const [name, value] of Object.entries(error.stored.headers)) reply.header(name, value);
      reply.header('idempotent-replayed', 'true');
      return reply.code(error.stored.status).send(error.stored.body);
    }
    const problem = problemOfError(error, ctx.reportUnexpected);
    // A request whose first attempt failed keeps no Idempotency-Key (released in onSend).
    return sendProblem(request, reply, problem);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(
      request,
      reply,
      new ProblemReply(404, null, 'Not Found', `No route for ${request.method} ${pathOf(request.url)}.`),
    ),
  );

  app.get('/v1/health', { config: { operationId: 'health' } }, (_request, reply) =>
    reply.type('application/json; charset=utf-8').send('{"status":"ok"}'),
  );
  registerIdentityRoutes(app, {
    store: ctx.identity,
    consentUserId: ctx.store.mainUserId,
    oauth: ctx.oauth,
  });
  registerTaskRoutes(app, ctx);
  registerTaskActivityRoutes(app, ctx);
  registerAttachmentRoutes(app, ctx);
  registerSectionRoutes(app, ctx);
  registerSprintRoutes(app, ctx);
  registerGoalRoutes(app, ctx);
  registerMilestoneRoutes(app, ctx);
  registerTeamRoutes(app, ctx);
  registerViewRoutes(app, ctx);
  registerCollectionRoutes(app, ctx);
  registerControlRoutes(app, ctx);
  registerOpenApiRoute(app);
  return app;
}

// The control API under /_emulator/, for tools that run the emulator as a
// separate process: the same operations as EmulatorControl over HTTP. Only the
// emulator's own admin secret (`X-Emulator-Admin`) may call it: none is 401,
// a wrong one 403. It is not part of the service, so it has no rate limit,
// latency or faults of its own.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { parseOr422 } from './body-validation';
import { ManualClock } from './clock';
import { createControl, type MintTokenOptions } from './control';
import type { EmulatorContext } from './emulator-context';
import { ProblemReply } from './problem';
import type { TaskCreateInput, TaskPatchInput } from './task-changes';

const scopeShape = {
  path_prefix: z.string().optional(),
  method: z.string().optional(),
};
const faultSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('latency'), ms: z.number().int().min(0), ...scopeShape }),
  z.object({ kind: z.literal('drop-connection'), count: z.number().int().min(1).default(1), ...scopeShape }),
  z.object({ kind: z.literal('server-error'), count: z.number().int().min(1).default(1), ...scopeShape }),
  z.object({
    kind: z.literal('rate-limit-burst'),
    count: z.number().int().min(1).default(1),
    retry_after_seconds: z.number().int().min(0).optional(),
    ...scopeShape,
  }),
  z.object({
    kind: z.literal('short-page'),
    count: z.number().int().min(1).default(1),
    page_size: z.number().int().min(0).optional(),
    ...scopeShape,
  }),
  z.object({ kind: z.literal('empty-page'), count: z.number().int().min(1).default(1), ...scopeShape }),
  z.object({ kind: z.literal('reject-cursor'), count: z.number().int().min(1).default(1), ...scopeShape }),
  z.object({ kind: z.literal('expire-cursors') }),
]);
const tokenSchema = z.object({
  scopes: z.array(z.string()).min(1),
  principal_user_id: z.string().optional(),
  name: z.string().optional(),
  kind: z.enum(['live', 'test']).optional(),
  project_ids: z.array(z.string()).nullable().optional(),
  expires_at: z.string().nullable().optional(),
});

export function registerControlRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const control = createControl(ctx);
  const secret = Buffer.from(ctx.adminSecret);

  const requireAdmin = (request: FastifyRequest) => {
    const header = request.headers['x-emulator-admin'];
    if (typeof header !== 'string' || header === '') {
      throw new ProblemReply(401, null, 'Unauthorized', 'The control API needs the X-Emulator-Admin header.');
    }
    const given = Buffer.from(header);
    if (given.length !== secret.length || !timingSafeEqual(given, secret)) {
      throw new ProblemReply(403, null, 'Forbidden', 'X-Emulator-Admin is not this emulator’s admin secret.');
    }
  };
  app.addHook('onRequest', (request, _reply, done) => {
    try {
      if (request.url === '/_emulator' || request.url.startsWith('/_emulator/')) requireAdmin(request);
      done();
    } catch (error) {
      done(error as Error);
    }
  });

  const scopeOf = (input: { path_prefix?: string | undefined; method?: string | undefined }) => ({
    ...(input.path_prefix !== undefined ? { pathPrefix: input.path_prefix } : {}),
    ...(input.method !== undefined ? { method: input.method } : {}),
  });

  app.get('/_emulator/faults', () => control.faults.snapshot());
  app.post('/_emulator/faults', (request) => {
    const fault = parseOr422(faultSchema, request.body, 'body');
    const { faults } = control;
    switch (fault.kind) {
      case 'latency':
        faults.setLatency(fault.ms, scopeOf(fault));
        break;
      case 'drop-connection':
        faults.dropConnections(fault.count, scopeOf(fault));
        break;
      case 'server-error':
        faults.serverErrors(fault.count, scopeOf(fault));
        break;
      case 'rate-limit-burst':
        faults.rateLimitBurst(fault.count, {
          ...scopeOf(fault),
          ...(fault.retry_after_seconds !== undefined
            ? { retryAfterSeconds: fault.retry_after_seconds }
            : {}),
        });
        break;
      case 'short-page':
        faults.shortPages(fault.count, {
          ...scopeOf(fault),
          ...(fault.page_size !== undefined ? { pageSize: fault.page_size } : {}),
        });
        break;
      case 'empty-page':
        faults.emptyPages(fault.count, scopeOf(fault));
        break;
      case 'reject-cursor':
        faults.rejectCursors(fault.count, scopeOf(fault));
        break;
      case 'expire-cursors':
        faults.expireCursors();
        break;
    }
    return faults.snapshot();
  });
  app.delete('/_emulator/faults', () => {
    control.faults.clear();
    return control.faults.snapshot();
  });

  // Variance mode: its seed, whether its faults run, and how often each liberty was taken.
  const variance = () => {
    if (!control.variance)
      throw new ProblemReply(404, null, 'Not Found', 'This emulator was not started in variance mode.');
    return control.variance;
  };
  app.get('/_emulator/variance', () => variance().snapshot());
  app.post('/_emulator/variance', (request) => {
    const { faults } = parseOr422(z.object({ faults: z.boolean() }), request.body, 'body');
    variance().setFaults(faults);
    return variance().snapshot();
  });

  app.post('/_emulator/peer/tasks', (request, reply) => {
    const task = control.peerCreate(request.body as Omit<TaskCreateInput, 'org_id'>);
    return reply.code(201).send(task);
  });
  app.patch<{ Params: { task_id: string } }>('/_emulator/peer/tasks/:task_id', (request) =>
    control.peerEdit(request.params.task_id, request.body as TaskPatchInput),
  );
  app.delete<{ Params: { task_id: string } }>('/_emulator/peer/tasks/:task_id', (request, reply) => {
    control.peerDelete(request.params.task_id);
    return reply.code(204).send();
  });

  app.get('/_emulator/tasks', () => ({ data: control.tasks() }));
  app.get<{ Params: { task_id: string } }>('/_emulator/tasks/:task_id', (request) => {
    const task = control.task(request.params.task_id);
    if (!task) throw new ProblemReply(404, null, 'Not Found', `task ${request.params.task_id} not found`);
    return { task, etag: control.taskEtag(request.params.task_id) };
  });
  app.get<{ Params: { task_id: string } }>('/_emulator/tasks/:task_id/history', (request) => ({
    data: control.history(request.params.task_id),
  }));
  app.get('/_emulator/counts', () => ({ tasks: control.taskCount(), creates: control.creates() }));
  /** The emulator process's own CPU time and memory, so a benchmark can tell its cost from a busy machine's. */
  app.get('/_emulator/process', () => {
    const cpu = process.cpuUsage();
    const memory = process.memoryUsage();
    return {
      cpu_user_ms: cpu.user / 1000,
      cpu_system_ms: cpu.system / 1000,
      rss_bytes: memory.rss,
      heap_used_bytes: memory.heapUsed,
    };
  });
  app.get('/_emulator/requests', () => ({ data: control.requests() }));
  app.delete('/_emulator/requests', (_request, reply) => {
    control.clearRequests();
    return reply.code(204).send();
  });

  app.post('/_emulator/tokens', (request, reply) => {
    const input = parseOr422(tokenSchema, request.body, 'body');
    const options: MintTokenOptions = {
      scopes: input.scopes,
      ...(input.principal_user_id !== undefined ? { principalUserId: input.principal_user_id } : {}),
      ...(input.name !== undefined ? { name: input.name } : {}),
      ...(input.kind !== undefined ? { kind: input.kind } : {}),
      ...(input.project_ids !== undefined ? { projectIds: input.project_ids } : {}),
      ...(input.expires_at !== undefined ? { expiresAt: input.expires_at } : {}),
    };
    const minted = control.mintToken(options);
    return reply.code(201).send({ ...minted.record, token: minted.token });
  });
  app.delete<{ Params: { token_id: string } }>('/_emulator/tokens/:token_id', (request, reply) => {
    control.revokeToken(request.params.token_id, 'revoked through the control API');
    return reply.code(204).send();
  });

  app.put('/_emulator/oauth-auto-approve', (request) => {
    const { on } = parseOr422(z.object({ on: z.boolean() }), request.body, 'body');
    control.setOAuthAutoApprove(on);
    return { on };
  });
  app.put('/_emulator/oauth-withheld-scopes', (request) => {
    const { scopes } = parseOr422(z.object({ scopes: z.array(z.string()) }), request.body, 'body');
    control.setOAuthWithheldScopes(scopes);
    return { scopes };
  });
  app.post('/_emulator/oauth-grants/withdraw-scopes', (request) => {
    const { scopes } = parseOr422(z.object({ scopes: z.array(z.string()).min(1) }), request.body, 'body');
    return { scopes, grants_narrowed: control.withdrawOAuthScopes(scopes) };
  });
  app.put('/_emulator/rate-limit', (request) => {
    const input = parseOr422(
      z.object({
        live: z.number().int().min(1).optional(),
        test: z.number().int().min(1).optional(),
        window_ms: z.number().int().min(1).optional(),
      }),
      request.body,
      'body',
    );
    control.setRateLimit({
      ...(input.live !== undefined ? { live: input.live } : {}),
      ...(input.test !== undefined ? { test: input.test } : {}),
      ...(input.window_ms !== undefined ? { windowMs: input.window_ms } : {}),
    });
    return { ...ctx.rateLimiter.config };
  });
  app.get('/_emulator/attachments', () => ({
    data: control.attachments(),
    uploads: control.attachmentUploads(),
  }));
  app.put('/_emulator/malware-scan', (request) => {
    const input = parseOr422(
      z.object({ available: z.boolean(), retry_after_seconds: z.number().int().min(0).optional() }),
      request.body,
      'body',
    );
    control.setMalwareScan(input.available, input.retry_after_seconds);
    return {
      available: ctx.attachments.scan.available,
      retry_after_seconds: ctx.attachments.scan.retryAfterSeconds,
    };
  });
  /** Upload bodies read no further than `after_bytes` until it is null again (an upload seen part-way). */
  app.put('/_emulator/upload-reading', (request) => {
    const { after_bytes } = parseOr422(
      z.object({ after_bytes: z.number().int().min(0).nullable() }),
      request.body,
      'body',
    );
    return { after_bytes, holding: control.holdUploadReading(after_bytes) };
  });
  /** Moves a ManualClock (an emulator on the system clock answers 409). */
  app.post('/_emulator/clock/advance', (request) => {
    const { ms } = parseOr422(z.object({ ms: z.number().int().min(0) }), request.body, 'body');
    if (!(ctx.clock instanceof ManualClock)) {
      throw new ProblemReply(409, null, 'Conflict', 'This emulator runs on the system clock.');
    }
    ctx.clock.advance(ms);
    return { now: new Date(ctx.clock.now()).toISOString() };
  });
}

// Starts an emulator in this process: seeds its data, mints the three tokens
// (main member live and test, peer live), listens on a given or free port and
// hands back its addresses, tokens and a control handle (emulator-interface.md).
import { LoopbackHostGuard, loopbackHosts } from './loopback-host-guard';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { type Clock, systemClock } from './clock';
import { createControl, type EmulatorControl } from './control';
import type { EmulatorContext } from './emulator-context';
import { FaultPlan } from './faults';
import { IdempotencyStore } from './idempotency';
import { IdentityStore, type Member } from './identity/identity-store';
import { OAuthAuthority } from './identity/oauth';
import { CursorCodec } from './paging';
import { DEFAULT_RATE_LIMIT, RateLimiter } from './rate-limit';
import type { OrganizationMemberRecord } from './records';
import { seedOrganization } from './seed';
import { buildServer } from './server';
import { EmulatorStore } from './store';
import { TaskListEngine } from './task-list';
import { AttachmentStore } from './uploads/attachment-store';
import { type VarianceOptions, VarianceMode, seedUnknownTaskValues } from './variance';

export interface EmulatorOptions {
  /** undefined or 0: the OS picks a free port. */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 42; the same seed gives the same data (ids, texts, dates around the clock's day). */
  seed?: number;
  /** Default 300. */
  seedTasks?: number;
  /** Delay before every answer. */
  latencyMs?: number;
  clock?: Clock;
  /** Default 600 (live) / 60 (test) per 60 000 ms. */
  rateLimit?: { live?: number; test?: number; windowMs?: number };
  /** The OAuth consent page approves at once (302 straight to the redirect). */
  oauthAutoApprove?: boolean;
  /**
   * Variance mode: answers take the liberties the contract allows, deterministically per seed
   * (variance.ts). `control.variance.setFaults(false)` stops its faults and keeps the rest.
   */
  variance?: VarianceOptions;
  /**
   * Told of an error no route expected (answered as a 500 `internal`); default: a line on
   * stderr. The app's demo passes its own log.
   */
  onUnexpectedError?: (error: unknown) => void;
  /**
   * Answer only requests for its own `127.0.0.1:PORT` (or `localhost:PORT`)
   * and from its own origin (loopback-host-guard.ts): the demo's emulator,
   * which a web page's DNS rebinding must not reach. Default: any host (tests
   * put proxies in front of it).
   */
  answerOnlyOwnHost?: boolean;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT`; API paths are under /v1. */
  baseUrl: string;
  /** OAuth base (the same server): `${authUrl}/oauth/authorize`, `${authUrl}/oauth/token`. */
  authUrl: string;
  clientId: string;
  orgId: string;
  adminSecret: string;
  tokens: { live: string; test: string; peer: string };
  me: { user_id: string; username: string };
  peer: { user_id: string; username: string };
  control: EmulatorControl;
  /** With `answerOnlyOwnHost`: also answer requests for `host` ("127.0.0.1:PORT" of a proxy in front of it). */
  alsoAnswer(host: string): void;
  stop(): Promise<void>;
}

export const CLIENT_ID = 'svcc_desktop';
const MAIN_SCOPES = ['tasks:write', 'projects:write', 'teams:write', 'org:write'];
const PEER_SCOPES = ['tasks:write', 'projects:read', 'teams:read', 'members:read'];

function memberOf(record: OrganizationMemberRecord | undefined): Member | undefined {
  if (!record) return undefined;
  return {
    user_id: record.user_id,
    org_id: record.org_id,
    username: record.username ?? record.user_id,
    email: record.email ?? '',
    role: record.role,
    kind: record.kind,
    is_active: record.is_active,
  };
}

function urlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const clock = options.clock ?? systemClock;
  const seed = options.seed ?? 42;
  const store = new EmulatorStore(clock, seed);
  seedOrganization(store, { seed, taskCount: options.seedTasks ?? 300 });
  const variance = options.variance ? new VarianceMode(options.variance, clock) : null;
  if (variance) seedUnknownTaskValues(store, variance.seed);

  const identity = new IdentityStore({
    clock,
    orgId: store.org.org_id,
    lookupMember: (userId) => memberOf(store.members.get(userId)),
  });
  const main = store.mainMember;
  const peer = store.peerMember;
  const tokens = {
    live: identity.mintToken({
      principalUserId: main.user_id,
      name: 'emulator: main live',
      scopes: MAIN_SCOPES,
      createdBy: main.user_id,
    }).token,
    test: identity.mintToken({
      principalUserId: main.user_id,
      name: 'emulator: main test',
      kind: 'test',
      scopes: MAIN_SCOPES,
      createdBy: main.user_id,
    }).token,
    peer: identity.mintToken({
      principalUserId: peer.user_id,
      name: 'emulator: peer live',
      scopes: PEER_SCOPES,
      createdBy: peer.user_id,
    }).token,
  };

  const cursors = new CursorCodec();
  const ctx: EmulatorContext = {
    clock,
    store,
    attachments: new AttachmentStore(store),
    identity,
    tasks: new TaskListEngine(store, cursors),
    cursors,
    faults: new FaultPlan(cursors, variance),
    idempotency: new IdempotencyStore(clock),
    rateLimiter: new RateLimiter(clock, { ...DEFAULT_RATE_LIMIT, ...options.rateLimit }),
    latencyMs: options.latencyMs ?? 0,
    adminSecret: `adm_${randomBytes(18).toString('base64url')}`,
    requestLog: [],
    oauth: new OAuthAuthority({
      store: identity,
      consentUserId: store.mainUserId,
      // Read at each consent, so the control API may change them while it runs.
      autoApprove: () => ctx.oauthAutoApprove,
      withheldScopes: () => ctx.oauthWithheldScopes,
    }),
    oauthAutoApprove: options.oauthAutoApprove ?? false,
    oauthWithheldScopes: [],
    variance,
    hostGuard: options.answerOnlyOwnHost === true ? new LoopbackHostGuard() : null,
    reportUnexpected:
      options.onUnexpectedError ??
      ((error) =>
        process.stderr.write(
          `emulator: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`,
        )),
  };
  // Sorted before the first request: the default order and the stable one gaps.md recommends for a full pass.
  ctx.tasks.index('title');
  ctx.tasks.index('created_at');
  const app = buildServer(ctx);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ host, port: options.port ?? 0 });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://${urlHost(host)}:${port}`;
  ctx.hostGuard?.allow(...loopbackHosts(port), `${urlHost(host)}:${port}`);

  return {
    baseUrl,
    authUrl: baseUrl,
    clientId: CLIENT_ID,
    orgId: store.org.org_id,
    adminSecret: ctx.adminSecret,
    tokens,
    me: { user_id: main.user_id, username: main.username ?? main.user_id },
    peer: { user_id: peer.user_id, username: peer.username ?? peer.user_id },
    control: createControl(ctx),
    alsoAnswer: (proxied) => ctx.hostGuard?.allow(proxied),
    stop: () => app.close(),
  };
}

// Variance mode: the emulator answers the way another server keeping the same
// contract (service-api.md, gaps.md) might, deterministically per seed, so the
// client meets more than the answers it was written against. Representation
// liberties (fields absent or null, unknown fields and enum values, problem
// types under the former name, short and empty pages) are a function of the
// seed and the resource version, so every read of one version shows the same
// body; faults (429 bursts, 500s, dropped connections, slow first bytes,
// refused cursors, ETags that change on an unchanged body) follow the request
// sequence and can be switched off, so a test can sync until quiet and compare.
import { createHash } from 'node:crypto';
import type { Clock } from './clock';
import { DeterministicRandom } from './deterministic-random';
import { etagOf, noneMatchSatisfied } from './entity-tag';
import type { EmulatorStore } from './store';

export interface VarianceOptions {
  seed: number;
  /** Default true. Off: no 429, 500, dropped connection, slow first byte, refused cursor or ETag change. */
  faults?: boolean;
  /** Longest Retry-After of a 429 burst, in seconds (default 2). */
  maxRetryAfterSeconds?: number;
  /** Longest slow first byte, in ms (default 300). */
  maxDelayMs?: number;
  /** Scales every fault's probability (default 1). */
  faultRate?: number;
}

/** Every liberty variance mode takes, as counted in `VarianceMode.counts`. */
export const LIBERTIES = [
  'field-absent',
  'field-null',
  'unknown-field',
  'envelope-unknown-field',
  'envelope-field-absent',
  'unknown-enum',
  'problem-former-type',
  'problem-unknown-field',
  'problem-member-varied',
  'short-page',
  'empty-page',
  'trailing-empty-page',
  'cursor-refused-random',
  'cursor-refused-uses',
  'cursor-refused-age',
  'cursor-refused-unknown',
  'rate-limit-burst',
  'server-error',
  'dropped-connection',
  'slow-first-byte',
  'etag-changed',
  'not-modified',
  'range-ignored',
  'scan-unavailable',
  'content-etag-opaque',
] as const;
export type Liberty = (typeof LIBERTIES)[number];

/** Task values beyond those the client knows; variance mode stores some for real and accepts them on writes. */
export const UNKNOWN_TASK_STATUSES = ['triaged', 'in_review'] as const;
export const UNKNOWN_TASK_PRIORITIES = ['critical', 'someday'] as const;
/** The former product's problem prefix (contract, Versioning: it keeps meaning the same). */
export const FORMER_PROBLEM_PREFIX = 'urn:tsk:problem:';
const PROBLEM_PREFIX = 'urn:svc:problem:';

interface ResourceKind {
  name: string;
  matches(o: Record<string, unknown>): boolean;
  /** Kept as the server has them; every other field may be absent or null (contract: Resources). */
  required: readonly string[];
  /** Fields whose values are open-ended ("more may exist"), with values the client has never heard of. */
  unknownEnums?: Record<string, readonly string[]>;
  /** Arrays of nested resources to vary as well. */
  nested?: readonly string[];
  /** Required fields that may be null (contract: "required but nullable"). */
  nullable?: readonly string[];
}

const has = (o: Record<string, unknown>, ...keys: string[]) => keys.every((k) => k in o);

// First match wins: a task carries goal_id and project_id, a sprint team_id and name.
const KINDS: readonly ResourceKind[] = [
  // Acknowledgement, GoalDeleted, MilestoneTaskUnfiled: every member required, so only unknown ones join.
  {
    name: 'acknowledgement',
    matches: (o) => typeof o.ok === 'boolean' && !has(o, 'name') && !has(o, 'title'),
    required: ['ok', 'goal_id', 'unfiled_tasks', 'milestone_id', 'task_id'],
  },
  {
    name: 'history',
    matches: (o) => has(o, 'history_id'),
    required: ['history_id', 'task_id', 'action', 'created_by'],
  },
  { name: 'comment', matches: (o) => has(o, 'comment_id'), required: ['comment_id', 'task_id'] },
  // gaps.md assumes the attachment's shape; the client keys on its two ids.
  {
    name: 'attachment',
    matches: (o) => has(o, 'attachment_id'),
    required: ['attachment_id', 'task_id'],
  },
  // gaps.md assumes the task's shape; the client keys on these three.
  {
    name: 'task',
    matches: (o) => has(o, 'task_id', 'title', 'status'),
    required: ['task_id', 'title', 'status'],
  },
  {
    name: 'sprint',
    matches: (o) => has(o, 'sprint_id'),
    required: ['sprint_id', 'org_id', 'team_id', 'name', 'start_date', 'end_date'],
    unknownEnums: { status: ['planned'] },
  },
  {
    name: 'section',
    matches: (o) => has(o, 'section_id', 'scope_type'),
    required: ['section_id', 'org_id', 'name', 'scope_type', 'scope_id', 'position'],
  },
  {
    name: 'goal',
    matches: (o) => has(o, 'goal_id', 'name'),
    required: ['goal_id', 'org_id', 'project_id', 'name'],
    unknownEnums: { status: ['at_risk'] },
  },
  {
    name: 'milestone',
    matches: (o) => has(o, 'milestone_id', 'name'),
    required: ['milestone_id', 'project_id', 'name'],
    unknownEnums: { status: ['slipping'] },
  },
  {
    name: 'project',
    matches: (o) => has(o, 'project_id', 'name'),
    required: ['project_id', 'name'],
    unknownEnums: { status: ['paused'] },
  },
  {
    name: 'team-member',
    matches: (o) => has(o, 'team_id', 'user_id', 'team_role'),
    required: ['team_id', 'user_id', 'team_role'],
  },
  {
    name: 'team',
    matches: (o) => has(o, 'team_id', 'name'),
    required: ['team_id', 'org_id', 'name'],
    nested: ['members'],
  },
  // /v1/me (gaps.md: the caller's identity) answers exactly these four, and the client needs each.
  {
    name: 'me',
    matches: (o) => has(o, 'user_id', 'username', 'email', 'org_id') && Object.keys(o).length === 4,
    required: ['user_id', 'username', 'email', 'org_id'],
  },
  // email and username are "required but nullable" for members: always there, sometimes null.
  {
    name: 'member',
    matches: (o) => has(o, 'user_id', 'org_id') && ('email' in o || 'username' in o),
    required: ['user_id', 'org_id', 'email', 'username'],
    nullable: ['email', 'username'],
  },
  { name: 'organization', matches: (o) => has(o, 'org_id', 'name', 'slug'), required: ['org_id', 'name'] },
];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A generator for one decision, from the seed and what it is about (so the same input decides the same). */
function randomOf(seed: number, ...parts: string[]): DeterministicRandom {
  const digest = createHash('sha1')
    .update(`${seed}\u0000${parts.join('\u0000')}`)
    .digest();
  return new DeterministicRandom(digest.readUInt32LE(0) ^ digest.readUInt32LE(4));
}

function unknownValue(rand: DeterministicRandom): unknown {
  switch (rand.int(0, 5)) {
    case 0:
      return `x-${rand.token(6)}`;
    case 1:
      return rand.int(-5, 5000);
    case 2:
      return rand.chance(0.5);
    case 3:
      return null;
    case 4:
      return { note: rand.token(4), nested: [rand.int(0, 9), { deep: rand.token(3) }] };
    default:
      return [rand.token(3), rand.int(0, 9)];
  }
}

interface IssuedCursor {
  at: number;
  request: number;
}

export interface VarianceRequestInfo {
  method: string;
  path: string;
  url: string;
  idempotencyKey: string | null;
}

export interface VarianceFault {
  kind: 'server-error' | 'rate-limit-burst' | 'reject-cursor' | 'short-page';
  retryAfterSeconds?: number;
  pageSize?: number;
}

export interface RenderedAnswer {
  payload: string;
  etag: string | null;
  notModified: boolean;
}

const ISSUED_CAP = 200_000;
const ETAG_MAP_CAP = 50_000;

export class VarianceMode {
  readonly seed: number;
  private faultsOn: boolean;
  private readonly maxRetryAfter: number;
  private readonly maxDelay: number;
  private readonly rate: number;
  /** Fault decisions follow the request sequence. */
  private readonly faultRandom: DeterministicRandom;
  private requestCount = 0;
  private burstLeft = 0;
  private burstRetryAfter = 1;
  private etagEpoch = 0;
  /** ETags sent → the route's own ETag, so If-Match with what we sent reaches the route as it knows it. */
  private readonly etags = new Map<string, { routeEtag: string; epoch: number }>();
  /** Every cursor this process handed out, when last and at which request (others are refused). */
  private readonly issued = new Map<string, IssuedCursor>();
  private readonly droppedKeys = new Set<string>();
  private problemCount = 0;
  /** Cursors stop being accepted after this many requests, or this long, after they were last handed out. */
  readonly cursorMaxRequests: number;
  readonly cursorMaxAgeMs: number;
  readonly counts: Record<Liberty, number>;

  constructor(
    options: VarianceOptions,
    private readonly clock: Clock,
  ) {
    this.seed = options.seed;
    this.faultsOn = options.faults ?? true;
    this.maxRetryAfter = options.maxRetryAfterSeconds ?? 2;
    this.maxDelay = options.maxDelayMs ?? 300;
    this.rate = options.faultRate ?? 1;
    this.faultRandom = new DeterministicRandom(options.seed ^ 0x5eed);
    const setup = randomOf(options.seed, 'setup');
    this.cursorMaxRequests = setup.int(40, 400);
    this.cursorMaxAgeMs = setup.int(5, 60) * 1000;
    this.counts = Object.fromEntries(LIBERTIES.map((l) => [l, 0])) as Record<Liberty, number>;
  }

  get faults(): boolean {
    return this.faultsOn;
  }

  /**
   * Changes every ETag now, no body (as the fault does at random): a test meets
   * the contract's "an ETag may change on an unchanged body" at a moment it chooses.
   */
  changeEtags(): void {
    this.etagEpoch += 1;
    this.count('etag-changed');
  }

  /** Off: the representation liberties stay, the faults stop ("once faults stop"). */
  setFaults(on: boolean): void {
    this.faultsOn = on;
    if (!on) this.burstLeft = 0;
  }

  private count(liberty: Liberty, n = 1): void {
    this.counts[liberty] += n;
  }

  private fault(probability: number): boolean {
    return this.faultsOn && this.faultRandom.chance(probability * this.rate);
  }

  /**
   * Before the route: counts the request, may move the ETag epoch (every ETag changes, bodies do not),
   * and rewrites `If-Match` tags we sent to the route's own. Returns `If-None-Match`, which variance
   * answers itself after rendering (the route must render the full body).
   */
  beforeRoute(headers: Record<string, string | string[] | undefined>): string | undefined {
    this.requestCount += 1;
    if (this.fault(0.01)) {
      this.etagEpoch += 1;
      this.count('etag-changed');
    }
    const ifMatch = headers['if-match'];
    if (typeof ifMatch === 'string') {
      headers['if-match'] = ifMatch
        .split(',')
        .map((tag) => {
          // A tag of an earlier ETag epoch stays as sent: the route refuses it (412), as for a stale one.
          const known = this.etags.get(tag.trim());
          return known && known.epoch === this.etagEpoch ? known.routeEtag : tag.trim();
        })
        .join(', ');
    }
    const ifNoneMatch = headers['if-none-match'];
    delete headers['if-none-match'];
    return typeof ifNoneMatch === 'string' ? ifNoneMatch : undefined;
  }

  /** A fault for this request, if variance has one (after the fault plan's counted ones). */
  take(kind: VarianceFault['kind'], request: VarianceRequestInfo): VarianceFault | undefined {
    if (!request.path.startsWith('/v1/')) return undefined;
    switch (kind) {
      case 'server-error':
        if (!this.fault(0.03)) return undefined;
        this.count('server-error');
        return { kind };
      case 'rate-limit-burst':
        if (this.burstLeft === 0 && this.fault(0.02)) {
          this.burstLeft = this.faultRandom.int(1, 3);
          this.burstRetryAfter = this.faultRandom.int(0, this.maxRetryAfter);
        }
        if (this.burstLeft === 0) return undefined;
        this.burstLeft -= 1;
        this.count('rate-limit-burst');
        return { kind, retryAfterSeconds: this.burstRetryAfter };
      case 'reject-cursor':
        return this.refuseCursor(request.url) ? { kind } : undefined;
      case 'short-page':
        return this.shortPage(request.url);
    }
  }

  private refuseCursor(url: string): boolean {
    const cursor = new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('cursor');
    if (cursor === null) return false;
    const issued = this.issued.get(cursor);
    // Not handed out by this process (an earlier one, or made up): refused whether faults run or not.
    if (!issued) {
      this.count('cursor-refused-unknown');
      return true;
    }
    if (!this.faultsOn) return false;
    if (this.requestCount - issued.request > this.cursorMaxRequests) {
      this.count('cursor-refused-uses');
      return true;
    }
    if (this.clock.now() - issued.at > this.cursorMaxAgeMs) {
      this.count('cursor-refused-age');
      return true;
    }
    if (this.fault(0.04)) {
      this.count('cursor-refused-random');
      return true;
    }
    return false;
  }

  /** Decided by the request (path, query, cursor) alone, so an unchanged list answers the same pages again. */
  private shortPage(url: string): VarianceFault | undefined {
    const rand = randomOf(this.seed, 'page', url);
    if (!rand.chance(0.3)) return undefined;
    const hasCursor = url.includes('cursor=');
    // Empty pages come with a fresh cursor (see render), so a walk always moves on.
    const pageSize = rand.pick(hasCursor ? [0, 1, 2, 3, 7, 20] : [0, 1, 2, 5, 20]);
    this.count(pageSize === 0 ? 'empty-page' : 'short-page');
    return { kind: 'short-page', pageSize };
  }

  /** Whether to cut this answer mid-body. A create's answer is cut once per Idempotency-Key at most. */
  dropAnswer(request: VarianceRequestInfo): boolean {
    if (!request.path.startsWith('/v1/')) return false;
    if (request.idempotencyKey !== null && this.droppedKeys.has(request.idempotencyKey)) return false;
    if (!this.fault(0.02)) return false;
    if (request.idempotencyKey !== null) this.droppedKeys.add(request.idempotencyKey);
    this.count('dropped-connection');
    return true;
  }

  /**
   * The ETag of an attachment's content: gaps.md assumes its quoted SHA-256, but a server may send any
   * strong validator, so some contents (the same ones every time, per seed) get an opaque one.
   */
  contentEtag(sha256: string): string {
    if (!randomOf(this.seed, 'content-etag', sha256).chance(0.5)) return `"${sha256}"`;
    this.count('content-etag-opaque');
    return etagOf(`${this.seed}\u0000${sha256}`);
  }

  /** Whether to answer a `Range` request with the whole body (RFC 9110 lets a server ignore Range). */
  ignoresRange(range: string | undefined): boolean {
    if (range === undefined || !this.fault(0.2)) return false;
    this.count('range-ignored');
    return true;
  }

  /** The Retry-After of a malware scan that cannot scan this upload now (503 `upload-rejected`), or null. */
  scanUnavailable(): number | null {
    if (!this.fault(0.1)) return null;
    this.count('scan-unavailable');
    return this.faultRandom.int(0, this.maxRetryAfter);
  }

  /** Milliseconds before the first byte of this answer. */
  delayMs(path: string): number {
    if (!path.startsWith('/v1/') || !this.fault(0.05)) return 0;
    this.count('slow-first-byte');
    return this.faultRandom.int(20, this.maxDelay);
  }

  /**
   * Renders a JSON answer of the API with the liberties of this seed, and its ETag (of the bytes sent,
   * within the ETag epoch). A GET whose `If-None-Match` names it becomes a 304.
   */
  render(
    request: { method: string; url: string; status: number; contentType: string; routeEtag: string | null },
    payload: string,
    ifNoneMatch: string | undefined,
  ): RenderedAnswer {
    let value: unknown;
    try {
      value = JSON.parse(payload);
    } catch {
      return { payload, etag: request.routeEtag, notModified: false };
    }
    let rendered: unknown = value;
    if (request.contentType.includes('problem+json')) rendered = this.renderProblem(value);
    else if (isRecord(value)) rendered = this.renderBody(value, request.url, payload);
    const text = JSON.stringify(rendered);
    if (request.routeEtag === null) return { payload: text, etag: null, notModified: false };
    const etag = etagOf(`${text}\u0000${this.etagEpoch}`);
    this.etags.set(etag, { routeEtag: request.routeEtag, epoch: this.etagEpoch });
    if (this.etags.size > ETAG_MAP_CAP) {
      const oldest = this.etags.keys().next().value;
      if (oldest !== undefined) this.etags.delete(oldest);
    }
    const notModified =
      request.status === 200 &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      noneMatchSatisfied(ifNoneMatch, etag);
    if (notModified) this.count('not-modified');
    return { payload: text, etag, notModified };
  }

  /** One resource as this seed renders it: the same for every read of the same version. */
  renderResource(resource: Record<string, unknown>): Record<string, unknown> {
    const kind = KINDS.find((k) => k.matches(resource));
    if (!kind) return resource;
    const canonical = JSON.stringify(resource);
    const rand = randomOf(this.seed, kind.name, canonical);
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(resource)) {
      if (kind.required.includes(field)) {
        const nulled = kind.nullable?.includes(field) === true && value !== null && rand.chance(0.15);
        if (nulled) this.count('field-null');
        out[field] = nulled ? null : value;
        continue;
      }
      const roll = rand.float();
      if (roll < 0.12) {
        this.count('field-absent');
        continue;
      }
      if (roll < 0.24 && value !== null) {
        this.count('field-null');
        out[field] = null;
        continue;
      }
      const unknown = kind.unknownEnums?.[field];
      if (unknown && typeof value === 'string' && rand.chance(0.25)) {
        this.count('unknown-enum');
        out[field] = rand.pick(unknown);
        continue;
      }
      if (kind.nested?.includes(field) && Array.isArray(value)) {
        out[field] = (value as unknown[]).map((item) => (isRecord(item) ? this.renderResource(item) : item));
        continue;
      }
      out[field] = value;
    }
    if (rand.chance(0.5)) {
      for (let i = rand.int(1, 2); i > 0; i--) out[`x_${rand.token(5)}`] = unknownValue(rand);
      this.count('unknown-field');
    }
    return out;
  }

  private renderBody(body: Record<string, unknown>, url: string, canonical: string): Record<string, unknown> {
    if (Array.isArray(body.data) && 'next_cursor' in body) return this.renderPage(body, url, canonical);
    if (Array.isArray(body.projects) && 'org_id' in body) {
      // GET /v1/goals and /v1/milestones: groups of pages under one envelope.
      const rand = randomOf(this.seed, 'grouped', canonical);
      const out: Record<string, unknown> = {
        ...body,
        projects: (body.projects as unknown[]).map((group) =>
          isRecord(group) ? this.renderPage(group, url, JSON.stringify(group)) : group,
        ),
      };
      if (rand.chance(0.3)) {
        delete out.total;
        this.count('envelope-field-absent');
      }
      return out;
    }
    return this.renderResource(body);
  }

  /** A list page (or a group of one): data and next_cursor stay; everything else may go or be joined by unknowns. */
  private renderPage(page: Record<string, unknown>, url: string, canonical: string): Record<string, unknown> {
    const rand = randomOf(this.seed, 'envelope', canonical);
    const data = (page.data as unknown[]).map((item) => (isRecord(item) ? this.renderResource(item) : item));
    let next = page.next_cursor;
    const requestCursor = new URLSearchParams(url.slice(url.indexOf('?') + 1)).get('cursor');
    if (typeof next === 'string' && requestCursor !== null) {
      // An empty page resuming where it started: hand out a fresh cursor to the same place (one hop
      // further), so that the next request is a new one and decides its own page size.
      next = this.renewedCursor(next, requestCursor);
    }
    if (data.length === 0 && next === null && requestCursor !== null) this.count('trailing-empty-page');
    if (typeof next === 'string') this.issue(next);
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(page)) {
      if (field === 'data') out.data = data;
      else if (field === 'next_cursor') out.next_cursor = next;
      else if (rand.chance(0.2)) this.count('envelope-field-absent');
      else if (rand.chance(0.1)) out[field] = null;
      else out[field] = value;
    }
    if (rand.chance(0.4)) {
      out[`x_${rand.token(4)}`] = unknownValue(rand);
      out.has_more = next !== null;
      this.count('envelope-unknown-field');
    }
    return out;
  }

  private renewedCursor(next: string, requested: string): string {
    const payloadOf = (cursor: string): Record<string, unknown> | null => {
      try {
        const payload: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
        return isRecord(payload) ? payload : null;
      } catch {
        return null;
      }
    };
    const fresh = payloadOf(next);
    const asked = payloadOf(requested);
    if (!fresh || !asked) return next;
    const { h: askedHop, ...askedPlace } = asked;
    const { h: _freshHop, ...freshPlace } = fresh;
    if (JSON.stringify(askedPlace) !== JSON.stringify(freshPlace)) return next;
    const hop = typeof askedHop === 'number' ? askedHop + 1 : 1;
    return Buffer.from(JSON.stringify({ ...freshPlace, h: hop })).toString('base64url');
  }

  private issue(cursor: string): void {
    this.issued.delete(cursor);
    this.issued.set(cursor, { at: this.clock.now(), request: this.requestCount });
    if (this.issued.size > ISSUED_CAP) {
      const oldest = this.issued.keys().next().value;
      if (oldest !== undefined) this.issued.delete(oldest);
    }
  }

  /**
   * Problems keep every required member and their status; the type may carry the former name, `errors`
   * may be absent or null, members of its items (`loc` included, `required` never) may be null, absent
   * or joined by unknown ones, and unknown extension members appear.
   */
  private renderProblem(problem: unknown): unknown {
    if (!isRecord(problem)) return problem;
    // Problems need not read alike twice: they follow the sequence (request ids are random per process).
    this.problemCount += 1;
    const rand = randomOf(this.seed, 'problem', String(problem.type), String(this.problemCount));
    const out: Record<string, unknown> = { ...problem };
    if (typeof out.type === 'string' && out.type.startsWith(PROBLEM_PREFIX) && rand.chance(0.4)) {
      out.type = FORMER_PROBLEM_PREFIX + out.type.slice(PROBLEM_PREFIX.length);
      this.count('problem-former-type');
    }
    if (Array.isArray(out.errors) && rand.chance(0.15)) {
      // errors is optional: a server may leave the list out, or send it null.
      if (rand.chance(0.5)) delete out.errors;
      else out.errors = null;
      this.count('problem-member-varied');
    } else if (Array.isArray(out.errors)) {
      out.errors = (out.errors as unknown[]).map((item) => {
        if (!isRecord(item)) return item;
        const varied: Record<string, unknown> = { ...item };
        // `required` stays: null there means "not available to tokens" (contract, Authentication).
        for (const member of ['loc', 'allowed', 'reason', 'msg', 'type']) {
          if (member === 'loc' && !rand.chance(0.1)) continue;
          const roll = rand.float();
          if (roll < 0.3) {
            varied[member] = null;
            this.count('problem-member-varied');
          } else if (roll < 0.45) {
            delete varied[member];
            this.count('problem-member-varied');
          }
        }
        if (rand.chance(0.4)) varied[`x_${rand.token(4)}`] = unknownValue(rand);
        return varied;
      });
    } else if (rand.chance(0.3)) {
      out.errors = null;
      this.count('problem-member-varied');
    }
    if (rand.chance(0.6)) {
      out[`x_${rand.token(4)}`] = unknownValue(rand);
      out.trace_id = rand.token(16);
      this.count('problem-unknown-field');
    }
    return out;
  }

  snapshot(): { seed: number; faults: boolean; counts: Record<Liberty, number> } {
    return { seed: this.seed, faults: this.faultsOn, counts: { ...this.counts } };
  }
}

/**
 * Stores statuses and priorities the client has never heard of on some seeded tasks (for real: a
 * server that sends them accepts them back), before the task indexes are built.
 */
export function seedUnknownTaskValues(store: EmulatorStore, seed: number): void {
  const rand = randomOf(seed, 'unknown-task-values');
  for (const entry of store.tasks.values()) {
    const status = rand.chance(0.15) ? rand.pick(UNKNOWN_TASK_STATUSES) : entry.record.status;
    const priority = rand.chance(0.15) ? rand.pick(UNKNOWN_TASK_PRIORITIES) : entry.record.priority;
    if (status === entry.record.status && priority === entry.record.priority) continue;
    store.updateTask(entry, { ...entry.record, status, priority });
  }
}

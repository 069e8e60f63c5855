// Fault injection, so client tests can meet what a real network and a real
// service do: added latency, connections dropped mid-body, 500s, bursts of
// 429, short and empty pages that still carry a next_cursor, and cursors that
// stop being accepted. Each counted fault hits the next N matching requests
// (optionally only under a path prefix and for one method), then wears off.
import type { CursorCodec } from './paging';
import type { VarianceMode } from './variance';

export interface FaultScope {
  /** Only requests whose path starts with this (e.g. `/v1/tasks`). */
  pathPrefix?: string;
  /** Only this HTTP method (e.g. `GET`). */
  method?: string;
}

export type CountedFaultKind =
  'drop-connection' | 'server-error' | 'rate-limit-burst' | 'short-page' | 'reject-cursor';

export interface CountedFault extends FaultScope {
  kind: CountedFaultKind;
  /** Matching requests still to hit. */
  remaining: number;
  /** `short-page`: items per page (0: empty pages). */
  pageSize?: number;
  /** `rate-limit-burst`: the Retry-After it answers. */
  retryAfterSeconds?: number;
}

export interface LatencyFault extends FaultScope {
  ms: number;
}

/** A request held on its way in until the test lets it go (see {@link FaultPlan.hold}). */
export interface HeldRequest {
  /** Settles once the matching request has arrived and is held. */
  readonly arrived: Promise<void>;
  /** Lets it go on to its handler (and stops holding, if none arrived yet). */
  release(): void;
}

interface Hold extends FaultScope {
  taken: boolean;
  arrive: () => void;
  gate: Promise<void>;
  release: () => void;
}

export interface FaultSnapshot {
  latency: LatencyFault[];
  counted: CountedFault[];
  cursorEpoch: number;
}

function matches(scope: FaultScope, method: string, path: string): boolean {
  if (scope.method !== undefined && scope.method.toUpperCase() !== method) return false;
  return scope.pathPrefix === undefined || path.startsWith(scope.pathPrefix);
}

function scopeOf(scope: FaultScope): FaultScope {
  return {
    ...(scope.pathPrefix !== undefined ? { pathPrefix: scope.pathPrefix } : {}),
    ...(scope.method !== undefined ? { method: scope.method.toUpperCase() } : {}),
  };
}

export class FaultPlan {
  private latency: LatencyFault[] = [];
  private counted: CountedFault[] = [];
  private holds: Hold[] = [];

  constructor(
    private readonly cursors: CursorCodec,
    /** Variance mode's own faults and page sizes, after the counted ones. */
    private readonly variance: VarianceMode | null = null,
  ) {}

  /** Adds `ms` of delay before every matching answer (0 removes the latency of that scope). */
  setLatency(ms: number, scope: FaultScope = {}): void {
    const s = scopeOf(scope);
    this.latency = this.latency.filter((l) => l.pathPrefix !== s.pathPrefix || l.method !== s.method);
    if (ms > 0) this.latency.push({ ms, ...s });
  }

  /** The next `count` matching answers send their headers and part of the body, then the socket is destroyed. */
  dropConnections(count: number, scope: FaultScope = {}): void {
    this.add({ kind: 'drop-connection', remaining: count, ...scopeOf(scope) });
  }

  /** The next `count` matching requests answer 500 `internal` without doing anything. */
  serverErrors(count: number, scope: FaultScope = {}): void {
    this.add({ kind: 'server-error', remaining: count, ...scopeOf(scope) });
  }

  /** The next `count` matching requests answer 429 `rate-limit` with `Retry-After`. */
  rateLimitBurst(count: number, options: FaultScope & { retryAfterSeconds?: number } = {}): void {
    this.add({
      kind: 'rate-limit-burst',
      remaining: count,
      retryAfterSeconds: options.retryAfterSeconds ?? 1,
      ...scopeOf(options),
    });
  }

  /** The next `count` matching list pages hold at most `pageSize` items (0: none) and a non-null next_cursor. */
  shortPages(count: number, options: FaultScope & { pageSize?: number } = {}): void {
    this.add({ kind: 'short-page', remaining: count, pageSize: options.pageSize ?? 1, ...scopeOf(options) });
  }

  emptyPages(count: number, scope: FaultScope = {}): void {
    this.shortPages(count, { ...scope, pageSize: 0 });
  }

  /** The next `count` matching requests that carry a `cursor` answer 400 `invalid-parameter` on it. */
  rejectCursors(count: number, scope: FaultScope = {}): void {
    this.add({ kind: 'reject-cursor', remaining: count, ...scopeOf(scope) });
  }

  /**
   * The next matching request waits before its handler until `release()`: a
   * test takes a step while it is under way, knowing it arrived, with no timing.
   */
  hold(scope: FaultScope = {}): HeldRequest {
    let arrive = () => undefined as void;
    let release = () => undefined as void;
    const arrived = new Promise<void>((resolve) => (arrive = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const hold: Hold = { taken: false, arrive, gate, release, ...scopeOf(scope) };
    this.holds.push(hold);
    return {
      arrived,
      release: () => {
        this.holds = this.holds.filter((h) => h !== hold);
        hold.release();
      },
    };
  }

  /** Waits while a hold catches this request (the first matching hold not yet taken). */
  async held(method: string, path: string): Promise<void> {
    const hold = this.holds.find((h) => !h.taken && matches(h, method, path));
    if (!hold) return;
    hold.taken = true;
    hold.arrive();
    await hold.gate;
  }

  /** Every cursor handed out so far stops being accepted (new ones work). */
  expireCursors(): void {
    this.cursors.epoch += 1;
  }

  clear(): void {
    this.latency = [];
    this.counted = [];
    for (const hold of this.holds) hold.release();
    this.holds = [];
  }

  snapshot(): FaultSnapshot {
    return {
      latency: this.latency.map((l) => ({ ...l })),
      counted: this.counted.map((c) => ({ ...c })),
      cursorEpoch: this.cursors.epoch,
    };
  }

  /** Total added latency for a request. */
  latencyFor(method: string, path: string): number {
    let ms = 0;
    for (const l of this.latency) if (matches(l, method, path)) ms += l.ms;
    return ms;
  }

  /** Consumes one hit of the first matching fault of this kind, if any (`url`: with its query, for variance). */
  take(kind: CountedFaultKind, method: string, path: string, url: string = path): CountedFault | undefined {
    const fault = this.counted.find((f) => f.kind === kind && f.remaining > 0 && matches(f, method, path));
    if (!fault) {
      if (this.variance === null || kind === 'drop-connection') return undefined;
      const varied = this.variance.take(kind, { method, path, url, idempotencyKey: null });
      return varied && { remaining: 0, ...varied };
    }
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.counted = this.counted.filter((f) => f !== fault);
    return fault;
  }

  private add(fault: CountedFault): void {
    if (!Number.isInteger(fault.remaining) || fault.remaining < 1)
      throw new RangeError('count must be a positive integer');
    this.counted.push(fault);
  }
}

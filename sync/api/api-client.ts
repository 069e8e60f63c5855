// The service's HTTP client: one keep-alive undici pool, the rate governor in
// front of every authenticated request, retries where repeating is safe, token
// refresh on expiry, and every answer either validated against its schema or
// turned into a typed error. It never touches the mirror or the outbox.
import { createHash } from 'node:crypto';
import { Pool, type Dispatcher } from 'undici';
import type { z } from 'zod';
import type { ListPage } from '../../protocol/list-page';
import { type ApiClock, sleep, systemApiClock } from './clock';
import type { CredentialSource } from './credentials';
import {
  ApiError,
  NetworkError,
  RequestAbortedError,
  SignedOutError,
  type SignedOutReason,
  parseRetryAfter,
  problemErrorFromAnswer,
  redactSecrets,
} from './errors';
import type {
  CreateOperation,
  DeleteOperation,
  Endpoint,
  ListOperation,
  ReadOperation,
  UpdateOperation,
} from './operations';
import { type RateObservation, type RequestLane, RateGovernor } from './rate-governor';
import { parseResponseBody } from './response-body';
import {
  DEFAULT_RETRY_OPTIONS,
  type RetryOptions,
  backoffDelayMs,
  describeTransportFailure,
  isRetryableStatus,
  isSafeToRepeat,
} from './retry-policy';
import { defaultUserAgent } from './user-agent';

export interface ConnectionSettings {
  /** Sockets kept to the service (bounds concurrent requests). Default 16. */
  connections: number;
  connectTimeoutMs: number;
  /** Until the answer's headers have arrived. */
  headersTimeoutMs: number;
  /** Longest silence while the body arrives. */
  bodyTimeoutMs: number;
  keepAliveTimeoutMs: number;
}

export const DEFAULT_CONNECTION_SETTINGS: ConnectionSettings = {
  connections: 16,
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 30_000,
  bodyTimeoutMs: 60_000,
  keepAliveTimeoutMs: 30_000,
};

export interface ApiClientOptions {
  /** The API's base address; paths are under `/v1`. */
  baseUrl: string;
  credentials: CredentialSource;
  /** Share one governor between every client that uses the same token. */
  governor?: RateGovernor;
  /** An undici dispatcher to use instead of the client's own pool (the client then does not close it). */
  dispatcher?: Dispatcher;
  connection?: Partial<ConnectionSettings>;
  retry?: Partial<RetryOptions>;
  clock?: ApiClock;
  userAgent?: string;
}

/** One page of a list, as `cursor`, `limit`, `sort_by`, `sort_order` and `filter[...]` parameters. */
export interface PageRequest {
  cursor?: string | null | undefined;
  limit?: number | undefined;
  sortBy?: string | undefined;
  sortOrder?: 'asc' | 'desc' | undefined;
  /** `filter[key]` values; an array repeats the parameter (values OR-ed). */
  filter?: Readonly<Record<string, string | number | boolean | readonly string[] | undefined>> | undefined;
}

export interface RequestOptions {
  /** Default: `background` for reads, `user` for writes. */
  lane?: RequestLane | undefined;
  signal?: AbortSignal | undefined;
}

export interface ReadOptions extends RequestOptions {
  /** The stored ETag: an unchanged resource answers 304 without a body. */
  ifNoneMatch?: string | null | undefined;
}

export interface CreateOptions extends RequestOptions {
  /** The operation id: a retry replays the first answer instead of creating twice. Without it, never retried. */
  idempotencyKey?: string | undefined;
}

export interface UpdateOptions extends RequestOptions {
  /** The base ETag: a stale one is a 412 and nothing is written. */
  ifMatch?: string | null | undefined;
  idempotencyKey?: string | undefined;
}

export interface DeleteOptions extends RequestOptions {
  ifMatch?: string | null | undefined;
}

export type ReadAnswer<Body> =
  | { status: 200; etag: string | null; body: Body; requestId: string | null }
  | { status: 304; etag: string | null; requestId: string | null };

export type ListAnswer<Item> = ReadAnswer<ListPage<Item>>;

/** A list page as received: a 200's body bytes, neither parsed nor validated (see listPageBody). */
export type ListBodyAnswer =
  | { status: 200; etag: string | null; body: ArrayBuffer; requestId: string | null }
  | { status: 304; etag: string | null; requestId: string | null };

export interface WriteAnswer<Body> {
  status: number;
  etag: string | null;
  body: Body;
  requestId: string | null;
}

export interface DeleteAnswer<Body> {
  status: number;
  /** Null for a 204 or when the operation's answer is not read. */
  body: Body | null;
  requestId: string | null;
}

export interface ApiClientStats {
  /** HTTP requests sent, retries included. */
  requests: number;
  /** 304 answers. */
  notModified: number;
  /** Attempts repeated after a network error, 5xx or in-flight idempotency key. */
  retries: number;
  /** 429 answers. */
  rateLimited: number;
  /** Access tokens refreshed after expiry. */
  refreshes: number;
}

/**
 * One HTTP attempt as it ended, for observers such as the sync log. Never
 * carries headers or bodies (so no token); `path` includes the query.
 */
export interface ApiExchange {
  operation: string;
  method: string;
  path: string;
  /** Null when no answer came (a network error). */
  status: number | null;
  durationMs: number;
  requestId: string | null;
  /** 1 for the first attempt. */
  attempt: number;
  /** The client sends this request again (after a backoff, a Retry-After or a token refresh). */
  willRetry: boolean;
  /** The transport failure's code for a network error. */
  errorCode: string | null;
  /** Seconds the answer's `Retry-After` asked to wait (a 429, a 503), when it said. */
  retryAfterSeconds: number | null;
}

interface RequestSpec {
  operation: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  endpoint: Endpoint;
  extraQuery?: [string, string][];
  headers: Record<string, string>;
  body?: string;
  lane: RequestLane;
  signal: AbortSignal | undefined;
  authenticated: boolean;
  /** Keep a 2xx body as bytes (`RawAnswer.bytes`) instead of decoding it. */
  bytes?: boolean;
}

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  /** A 2xx body when the request asked for bytes. */
  bytes?: ArrayBuffer;
}

export class ApiClient {
  readonly baseUrl: string;
  readonly governor: RateGovernor;
  private readonly origin: string;
  private readonly basePath: string;
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly connection: ConnectionSettings;
  private readonly retry: RetryOptions;
  private readonly clock: ApiClock;
  private readonly userAgent: string;
  private readonly credentials: CredentialSource;
  private readonly counters: ApiClientStats = {
    requests: 0,
    notModified: 0,
    retries: 0,
    rateLimited: 0,
    refreshes: 0,
  };
  // Tokens are remembered only by fingerprint (SHA-256), never by value.
  /** The refresh under way (or last done) and the expired token it replaces: one refresh per expiry. */
  private refreshing: { from: string; done: Promise<void> } | null = null;
  /** The token the service last refused for good, so we stop sending it. */
  private signedOut: { tokenId: string; reason: SignedOutReason } | null = null;
  /** The token last sent: the service counts its budget per token. */
  private lastTokenId: string | null = null;
  private readonly exchangeObservers = new Set<(exchange: ApiExchange) => void>();

  constructor(options: ApiClientOptions) {
    const url = new URL(options.baseUrl);
    this.baseUrl = options.baseUrl;
    this.origin = url.origin;
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.connection = { ...DEFAULT_CONNECTION_SETTINGS, ...options.connection };
    this.retry = { ...DEFAULT_RETRY_OPTIONS, ...options.retry };
    this.clock = options.clock ?? systemApiClock;
    this.governor = options.governor ?? new RateGovernor({ clock: this.clock });
    this.userAgent = options.userAgent ?? defaultUserAgent();
    this.credentials = options.credentials;
    if (options.dispatcher) {
      this.dispatcher = options.dispatcher;
      this.ownsDispatcher = false;
    } else {
      this.dispatcher = new Pool(this.origin, {
        connections: this.connection.connections,
        pipelining: 1,
        connect: { timeout: this.connection.connectTimeoutMs },
        headersTimeout: this.connection.headersTimeoutMs,
        bodyTimeout: this.connection.bodyTimeoutMs,
        keepAliveTimeout: this.connection.keepAliveTimeoutMs,
      });
      this.ownsDispatcher = true;
    }
  }

  get stats(): Readonly<ApiClientStats> {
    return { ...this.counters };
  }

  /** Tells `observer` about every HTTP attempt from now on; returns the function that stops it. */
  observe(observer: (exchange: ApiExchange) => void): () => void {
    this.exchangeObservers.add(observer);
    return () => this.exchangeObservers.delete(observer);
  }

  /** Closes the connection pool (when the client made it). */
  async close(): Promise<void> {
    if (this.ownsDispatcher) await this.dispatcher.close();
  }

  /** One page of a list, revalidated with `ifNoneMatch` when given. */
  async listPage<Item, Params>(
    operation: ListOperation<Item, Params>,
    params: Params,
    page: PageRequest = {},
    options: ReadOptions = {},
  ): Promise<ListAnswer<Item>> {
    const answer = await this.execute(listPageRequest(operation, params, page, options));
    return this.readAnswer(operation.name, operation.pageSchema, answer, options.ifNoneMatch);
  }

  /**
   * A list page whose 200 body comes back as bytes, not parsed: for a caller
   * that parses and validates it against `operation` elsewhere (the pull
   * worker, so that a 1000-task page never costs this thread a JSON.parse).
   * Everything else (governor, retries, problem answers) is as listPage.
   */
  async listPageBody<Item, Params>(
    operation: ListOperation<Item, Params>,
    params: Params,
    page: PageRequest = {},
    options: ReadOptions = {},
  ): Promise<ListBodyAnswer> {
    const answer = await this.execute({ ...listPageRequest(operation, params, page, options), bytes: true });
    const requestId = header(answer.headers, 'x-request-id');
    const etag = header(answer.headers, 'etag');
    if (answer.status === 304) return { status: 304, etag: etag ?? options.ifNoneMatch ?? null, requestId };
    if (answer.bytes === undefined) {
      // A redirect or other 3xx, as in readAnswer.
      throw problemErrorFromAnswer(operation.name, {
        status: answer.status,
        contentType: header(answer.headers, 'content-type'),
        text: answer.text,
        requestId,
        retryAfter: null,
      });
    }
    return { status: 200, etag, body: answer.bytes, requestId };
  }

  /** A single resource (or a grouped answer) under its ETag. */
  async read<Body, Params>(
    operation: ReadOperation<Body, Params>,
    params: Params,
    options: ReadOptions = {},
  ): Promise<ReadAnswer<Body>> {
    const answer = await this.execute({
      operation: operation.name,
      method: 'GET',
      endpoint: operation.endpoint(params),
      headers: conditional('if-none-match', options.ifNoneMatch),
      lane: options.lane ?? 'background',
      signal: options.signal,
      authenticated: operation.authenticated,
    });
    return this.readAnswer(operation.name, operation.schema, answer, options.ifNoneMatch);
  }

  /** POST a new resource; with an Idempotency-Key it is retried safely, without one never. */
  async create<Body, Input, Params>(
    operation: CreateOperation<Body, Input, Params>,
    params: Params,
    input: Input,
    options: CreateOptions = {},
  ): Promise<WriteAnswer<Body>> {
    const answer = await this.execute({
      operation: operation.name,
      method: 'POST',
      endpoint: operation.endpoint(params),
      headers: {
        'content-type': 'application/json',
        ...conditional('idempotency-key', options.idempotencyKey),
      },
      body: JSON.stringify(input),
      lane: options.lane ?? 'user',
      signal: options.signal,
      authenticated: true,
    });
    return this.writeAnswer(operation.name, operation.schema, answer);
  }

  /** PATCH with a JSON merge-patch: only the changed fields, null clears one. */
  async update<Body, Patch, Params>(
    operation: UpdateOperation<Body, Patch, Params>,
    params: Params,
    patch: Patch,
    options: UpdateOptions = {},
  ): Promise<WriteAnswer<Body>> {
    const answer = await this.execute({
      operation: operation.name,
      method: 'PATCH',
      endpoint: operation.endpoint(params),
      headers: {
        'content-type': 'application/merge-patch+json',
        ...conditional('if-match', options.ifMatch),
        ...conditional('idempotency-key', options.idempotencyKey),
      },
      body: JSON.stringify(patch),
      lane: options.lane ?? 'user',
      signal: options.signal,
      authenticated: true,
    });
    return this.writeAnswer(operation.name, operation.schema, answer);
  }

  async remove<Body, Params>(
    operation: DeleteOperation<Body, Params>,
    params: Params,
    options: DeleteOptions = {},
  ): Promise<DeleteAnswer<Body>> {
    const answer = await this.execute({
      operation: operation.name,
      method: 'DELETE',
      endpoint: operation.endpoint(params),
      headers: conditional('if-match', options.ifMatch),
      lane: options.lane ?? 'user',
      signal: options.signal,
      authenticated: true,
    });
    const requestId = header(answer.headers, 'x-request-id');
    if (answer.status === 204 || operation.schema === null || answer.text === '') {
      return { status: answer.status, body: null, requestId };
    }
    return {
      status: answer.status,
      body: parseResponseBody(operation.name, answer.status, operation.schema, answer.text),
      requestId,
    };
  }

  private readAnswer<Body>(
    operation: string,
    schema: z.ZodType<Body>,
    answer: RawAnswer,
    sentTag: string | null | undefined,
  ): ReadAnswer<Body> {
    const requestId = header(answer.headers, 'x-request-id');
    const etag = header(answer.headers, 'etag');
    if (answer.status === 304) {
      return { status: 304, etag: etag ?? sentTag ?? null, requestId };
    }
    if (answer.status < 200 || answer.status > 299) {
      // A redirect or other 3xx: undici does not follow them and the contract has none.
      throw problemErrorFromAnswer(operation, {
        status: answer.status,
        contentType: header(answer.headers, 'content-type'),
        text: answer.text,
        requestId,
        retryAfter: null,
      });
    }
    const body = parseResponseBody(operation, answer.status, schema, answer.text);
    return { status: 200, etag, body, requestId };
  }

  private writeAnswer<Body>(
    operation: string,
    schema: z.ZodType<Body>,
    answer: RawAnswer,
  ): WriteAnswer<Body> {
    return {
      status: answer.status,
      etag: header(answer.headers, 'etag'),
      body: parseResponseBody(operation, answer.status, schema, answer.text),
      requestId: header(answer.headers, 'x-request-id'),
    };
  }

  /**
   * Sends a request until it has an answer worth returning: waits its turn at
   * the governor, repeats it after transport errors and 5xx (when safe), after
   * 429 (when the wait is over) and after a token refresh. Answers below 400
   * are returned; the rest are thrown as typed errors.
   */
  private async execute(spec: RequestSpec): Promise<RawAnswer> {
    const path = this.pathOf(spec.endpoint, spec.extraQuery ?? []);
    const safe = isSafeToRepeat(spec.method, spec.headers);
    let attempt = 0;
    let rateLimitRetries = 0;
    let refreshed = false;
    for (;;) {
      attempt += 1;
      if (spec.signal?.aborted) throw new RequestAbortedError(spec.operation);
      const token = spec.authenticated ? await this.currentToken(spec.operation) : null;
      const tokenId = token === null ? null : tokenFingerprint(token);
      const headers: Record<string, string> = {
        accept: 'application/json, application/problem+json',
        'user-agent': this.userAgent,
        ...spec.headers,
      };
      if (token !== null) headers.authorization = `Bearer ${token}`;

      const permit = spec.authenticated ? await this.acquire(spec) : null;
      const startedAt = this.clock.now();
      const report = (
        status: number | null,
        requestId: string | null,
        willRetry: boolean,
        code: string | null,
        retryAfterSeconds: number | null = null,
      ) => {
        if (this.exchangeObservers.size === 0) return;
        const exchange: ApiExchange = {
          operation: spec.operation,
          method: spec.method,
          path,
          status,
          durationMs: this.clock.now() - startedAt,
          requestId,
          attempt,
          willRetry,
          errorCode: code,
          retryAfterSeconds,
        };
        for (const observer of this.exchangeObservers) {
          try {
            observer(exchange);
          } catch {
            // An observer's bug must not fail the request.
          }
        }
      };
      let answer: RawAnswer;
      try {
        this.counters.requests += 1;
        const response = await this.dispatcher.request({
          origin: this.origin,
          path,
          method: spec.method,
          headers,
          body: spec.body ?? null,
          signal: spec.signal ?? null,
          headersTimeout: this.connection.headersTimeoutMs,
          bodyTimeout: this.connection.bodyTimeoutMs,
        });
        const status = response.statusCode;
        if (status === 204 || status === 304) {
          await response.body.dump();
          answer = { status, headers: response.headers, text: '' };
        } else if (spec.bytes === true && status >= 200 && status < 300) {
          answer = { status, headers: response.headers, text: '', bytes: await response.body.arrayBuffer() };
        } else {
          answer = { status, headers: response.headers, text: await response.body.text() };
        }
      } catch (error) {
        permit?.release(null);
        if (spec.signal?.aborted) throw new RequestAbortedError(spec.operation);
        const failure = describeTransportFailure(error);
        const again = failure.retryable && (safe || failure.notSent) && attempt < this.retry.maxAttempts;
        report(null, null, again, failure.code);
        if (again) {
          this.counters.retries += 1;
          await this.pause(spec, backoffDelayMs(attempt, this.retry));
          continue;
        }
        const secrets = token === null ? [] : [token];
        throw new NetworkError(
          spec.operation,
          failure.code,
          redactSecrets(failure.description, secrets),
          attempt,
        );
      }
      const retryAfter = parseRetryAfter(
        header(answer.headers, 'retry-after') ?? undefined,
        this.clock.now(),
      );
      permit?.release(rateObservation(answer, retryAfter));

      const reportAnswer = (willRetry: boolean) =>
        report(answer.status, header(answer.headers, 'x-request-id'), willRetry, null, retryAfter);
      if (answer.status < 400) {
        reportAnswer(false);
        if (answer.status === 304) this.counters.notModified += 1;
        return answer;
      }
      const problem = problemErrorFromAnswer(
        spec.operation,
        {
          status: answer.status,
          contentType: header(answer.headers, 'content-type'),
          text: answer.text,
          requestId: header(answer.headers, 'x-request-id'),
          retryAfter,
        },
        token === null ? [] : [token],
      );

      if (answer.status === 429) {
        // Nothing was done; the governor holds this token's requests until Retry-After.
        this.counters.rateLimited += 1;
        reportAnswer(rateLimitRetries < this.retry.maxRateLimitRetries);
        if (rateLimitRetries < this.retry.maxRateLimitRetries) {
          rateLimitRetries += 1;
          attempt -= 1;
          if (!spec.authenticated) await this.pause(spec, (retryAfter ?? 1) * 1000);
          continue;
        }
        throw problem.withAttempts(attempt + rateLimitRetries);
      }

      if (answer.status === 401 && tokenId !== null) {
        const reason = signedOutReasonOf(problem.type);
        const refresh = reason === 'token-expired' && !refreshed && this.credentials.refresh !== undefined;
        reportAnswer(refresh);
        if (refresh) {
          refreshed = true;
          await this.refreshAfterExpiry(spec.operation, tokenId);
          attempt -= 1;
          continue;
        }
        throw this.signOut(spec.operation, tokenId, reason, problem.requestId);
      }

      const again =
        isRetryableStatus(answer.status, problem.type) && safe && attempt < this.retry.maxAttempts;
      reportAnswer(again);
      if (again) {
        this.counters.retries += 1;
        const wait = Math.max(backoffDelayMs(attempt, this.retry), (retryAfter ?? 0) * 1000);
        await this.pause(spec, wait);
        continue;
      }
      throw problem.withAttempts(attempt);
    }
  }

  private async acquire(spec: RequestSpec): Promise<{ release(observation: RateObservation | null): void }> {
    try {
      return await this.governor.acquire(spec.lane, spec.signal);
    } catch {
      throw new RequestAbortedError(spec.operation);
    }
  }

  private async pause(spec: RequestSpec, ms: number): Promise<void> {
    try {
      await sleep(this.clock, ms, spec.signal);
    } catch {
      throw new RequestAbortedError(spec.operation);
    }
  }

  private async currentToken(operation: string): Promise<string> {
    const token = await this.credentials.getAccessToken();
    const tokenId = tokenFingerprint(token);
    if (this.signedOut !== null && this.signedOut.tokenId === tokenId) {
      throw new SignedOutError(operation, this.signedOut.reason, null);
    }
    if (this.lastTokenId !== null && this.lastTokenId !== tokenId) this.governor.tokenChanged();
    this.lastTokenId = tokenId;
    return token;
  }

  /**
   * One refresh per expired token, however many requests saw it expire: the
   * first starts it, the others wait for it, later ones see the new token.
   * A refresh that fails on the network leaves the session as it was; any
   * other failure signs out.
   */
  private async refreshAfterExpiry(operation: string, expired: string): Promise<void> {
    // `expired` is the expired token's fingerprint.
    const credentials = this.credentials;
    if (!credentials.refresh) throw this.signOut(operation, expired, 'token-expired', null);
    let flight = this.refreshing?.from === expired ? this.refreshing : null;
    if (flight === null) {
      const current = tokenFingerprint(await this.credentials.getAccessToken());
      if (current !== expired) return;
      flight = this.refreshing?.from === expired ? this.refreshing : null;
    }
    if (flight === null) {
      const done = credentials.refresh().then(() => {
        this.counters.refreshes += 1;
      });
      flight = { from: expired, done };
      this.refreshing = flight;
      // Forget a refresh that failed on the network, so the next expiry tries again.
      done.catch((error: unknown) => {
        if (error instanceof NetworkError && this.refreshing?.done === done) this.refreshing = null;
      });
    }
    try {
      await flight.done;
    } catch (error) {
      if (error instanceof NetworkError) throw error;
      if (error instanceof ApiError && error.kind === 'aborted') throw error;
      const signedOut = this.signOut(operation, expired, 'token-expired', null);
      // The credentials' own sign-out says what to do (a login's: sign in again), so it is kept.
      throw error instanceof SignedOutError ? error : signedOut;
    }
  }

  private signOut(
    operation: string,
    tokenId: string,
    reason: SignedOutReason,
    requestId: string | null,
  ): SignedOutError {
    if (this.signedOut?.tokenId !== tokenId) {
      this.signedOut = { tokenId, reason };
      this.credentials.onSignedOut?.(reason);
    }
    return new SignedOutError(operation, reason, requestId);
  }

  private pathOf(endpoint: Endpoint, extra: [string, string][]): string {
    const query = new URLSearchParams();
    for (const [key, value] of Object.entries(endpoint.query ?? {})) {
      if (value !== undefined) query.append(key, value);
    }
    for (const [key, value] of extra) query.append(key, value);
    const search = query.toString();
    return `${this.basePath}${endpoint.path}${search === '' ? '' : `?${search}`}`;
  }
}

function tokenFingerprint(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

function signedOutReasonOf(type: string): SignedOutReason {
  return type === 'token-expired' || type === 'token-revoked' ? type : 'token-invalid';
}

function pageQuery(page: PageRequest): [string, string][] {
  const out: [string, string][] = [];
  if (page.cursor !== undefined && page.cursor !== null) out.push(['cursor', page.cursor]);
  if (page.limit !== undefined) out.push(['limit', String(page.limit)]);
  if (page.sortBy !== undefined) out.push(['sort_by', page.sortBy]);
  if (page.sortOrder !== undefined) out.push(['sort_order', page.sortOrder]);
  for (const [key, value] of Object.entries(page.filter ?? {})) {
    if (value === undefined) continue;
    const values: readonly string[] = Array.isArray(value) ? value : [String(value)];
    for (const one of values) out.push([`filter[${key}]`, one]);
  }
  return out;
}

function conditional(name: string, value: string | null | undefined): Record<string, string> {
  return value === undefined || value === null || value === '' ? {} : { [name]: value };
}

function header(headers: RawAnswer['headers'], name: string): string | null {
  const value = headers[name];
  if (Array.isArray(value)) return value[0] ?? null;
  return value ?? null;
}

function numberHeader(headers: RawAnswer['headers'], name: string): number | null {
  const value = header(headers, name);
  if (value === null || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

/** The GET of one list page, conditional on the page's last ETag when given. */
function listPageRequest<Item, Params>(
  operation: ListOperation<Item, Params>,
  params: Params,
  page: PageRequest,
  options: ReadOptions,
): RequestSpec {
  return {
    operation: operation.name,
    method: 'GET',
    endpoint: operation.endpoint(params),
    extraQuery: pageQuery(page),
    headers: conditional('if-none-match', options.ifNoneMatch),
    lane: options.lane ?? 'background',
    signal: options.signal,
    authenticated: true,
  };
}

function rateObservation(answer: RawAnswer, retryAfter: number | null): RateObservation {
  return {
    status: answer.status,
    limit: numberHeader(answer.headers, 'x-ratelimit-limit'),
    remaining: numberHeader(answer.headers, 'x-ratelimit-remaining'),
    resetSeconds: numberHeader(answer.headers, 'x-ratelimit-reset'),
    retryAfterSeconds: retryAfter,
  };
}

// The service's HTTP client: one keep-alive undici pool, the rate governor in
// front of every authenticated request, retries where repeating is safe, token
// refresh on expiry, and every answer either validated against its schema or
// turned into a typed error. It never touches the mirror or the outbox. The
// request's shape (api-request.ts), the reading of answers (api-answers.ts)
// and the token's state (token-session.ts) live beside it.
import { Pool, type Dispatcher } from 'undici';
import {
  type DeleteAnswer,
  type ListAnswer,
  type ListBodyAnswer,
  type RawAnswer,
  type ReadAnswer,
  type WriteAnswer,
  deleteAnswer,
  header,
  listBodyAnswer,
  rateObservation,
  readAnswer,
  writeAnswer,
} from './api-answers';
import {
  type CreateOptions,
  type DeleteOptions,
  type PageRequest,
  type ReadOptions,
  type ContentSink,
  type RequestOptions,
  type RequestSpec,
  type UpdateOptions,
  type UploadOptions,
  conditional,
  listPageRequest,
  requestBody,
  requestOf,
  requestPath,
} from './api-request';
import type { ApiExchange } from './api-exchange';
import { type ApiClock, sleep, systemApiClock } from './clock';
import type { CredentialSource } from './credentials';
import {
  NetworkError,
  RequestAbortedError,
  parseRetryAfter,
  problemErrorFromAnswer,
  redactSecrets,
} from './errors';
import { type MultipartBody, countedChunks } from './multipart-body';
import type {
  ContentOperation,
  CreateOperation,
  DeleteOperation,
  ListOperation,
  ReadOperation,
  UpdateOperation,
} from './operations';
import { type RatePermit, RateGovernor } from './rate-governor';
import {
  DEFAULT_RETRY_OPTIONS,
  type RetryOptions,
  backoffDelayMs,
  describeTransportFailure,
  isRetryableStatus,
  isSafeToRepeat,
} from './retry-policy';
import { TokenSession, signedOutReasonOf, tokenFingerprint } from './token-session';
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
  private readonly counters: ApiClientStats = {
    requests: 0,
    notModified: 0,
    retries: 0,
    rateLimited: 0,
    refreshes: 0,
  };
  private readonly session: TokenSession;
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
    this.session = new TokenSession(options.credentials, this.governor, () => {
      this.counters.refreshes += 1;
    });
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
    return readAnswer(operation.name, operation.pageSchema, answer, options.ifNoneMatch);
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
    return listBodyAnswer(operation.name, answer, options.ifNoneMatch);
  }

  /** A single resource (or a grouped answer) under its ETag. */
  async read<Body, Params>(
    operation: ReadOperation<Body, Params>,
    params: Params,
    options: ReadOptions = {},
  ): Promise<ReadAnswer<Body>> {
    const answer = await this.execute({
      ...requestOf(operation, params, 'GET', options),
      headers: conditional('if-none-match', options.ifNoneMatch),
      authenticated: operation.authenticated,
    });
    return readAnswer(operation.name, operation.schema, answer, options.ifNoneMatch);
  }

  /** POST a new resource; with an Idempotency-Key it is retried safely, without one never. */
  async create<Body, Input, Params>(
    operation: CreateOperation<Body, Input, Params>,
    params: Params,
    input: Input,
    options: CreateOptions = {},
  ): Promise<WriteAnswer<Body>> {
    const answer = await this.execute({
      ...requestOf(operation, params, 'POST', options),
      headers: {
        'content-type': 'application/json',
        ...conditional('idempotency-key', options.idempotencyKey),
      },
      body: JSON.stringify(input),
      authenticated: true,
    });
    return writeAnswer(operation.name, operation.schema, answer);
  }

  /**
   * POST a `multipart/form-data` body (an upload), answered as a create;
   * retried safely under its Idempotency-Key. `onProgress` hears the bytes
   * written to the connection so far, from 0 again on each attempt.
   */
  async upload<Body, Input, Params>(
    operation: CreateOperation<Body, Input, Params>,
    params: Params,
    form: MultipartBody,
    options: UploadOptions = {},
  ): Promise<WriteAnswer<Body>> {
    const { onProgress, ...create } = options;
    const answer = await this.execute({
      ...requestOf(operation, params, 'POST', create),
      headers: {
        'content-type': form.contentType,
        'content-length': String(form.length),
        ...conditional('idempotency-key', create.idempotencyKey),
      },
      body: () => countedChunks(form, onProgress),
      authenticated: true,
    });
    return writeAnswer(operation.name, operation.schema, answer);
  }

  /**
   * GET bytes into `sink` as they arrive. `resumeHeaders` is asked before
   * each attempt (a retry after a cut connection included), so that it asks
   * for the bytes still missing (`Range`, `If-Range`). Returns the answer's
   * status and ETag.
   */
  async download<Params>(
    operation: ContentOperation<Params>,
    params: Params,
    sink: ContentSink,
    resumeHeaders: () => Record<string, string>,
    options: RequestOptions = {},
  ): Promise<{ status: number; etag: string | null }> {
    const answer = await this.execute({
      ...requestOf(operation, params, 'GET', options),
      headers: {},
      attemptHeaders: resumeHeaders,
      authenticated: true,
      sink,
    });
    return { status: answer.status, etag: header(answer.headers, 'etag') };
  }

  /** PATCH with a JSON merge-patch: only the changed fields, null clears one. */
  async update<Body, Patch, Params>(
    operation: UpdateOperation<Body, Patch, Params>,
    params: Params,
    patch: Patch,
    options: UpdateOptions = {},
  ): Promise<WriteAnswer<Body>> {
    const answer = await this.execute({
      ...requestOf(operation, params, 'PATCH', options),
      headers: {
        'content-type': 'application/merge-patch+json',
        ...conditional('if-match', options.ifMatch),
        ...conditional('idempotency-key', options.idempotencyKey),
      },
      body: JSON.stringify(patch),
      authenticated: true,
    });
    return writeAnswer(operation.name, operation.schema, answer);
  }

  async remove<Body, Params>(
    operation: DeleteOperation<Body, Params>,
    params: Params,
    options: DeleteOptions = {},
  ): Promise<DeleteAnswer<Body>> {
    const answer = await this.execute({
      ...requestOf(operation, params, 'DELETE', options),
      headers: conditional('if-match', options.ifMatch),
      authenticated: true,
    });
    return deleteAnswer(operation.name, operation.schema, answer);
  }

  /**
   * Sends a request until it has an answer worth returning: waits its turn at
   * the governor, repeats it after transport errors and 5xx (when safe), after
   * 429 (when the wait is over) and after a token refresh. Answers below 400
   * are returned; the rest are thrown as typed errors.
   */
  private async execute(spec: RequestSpec): Promise<RawAnswer> {
    const path = requestPath(this.basePath, spec.endpoint, spec.extraQuery ?? []);
    const safe = isSafeToRepeat(spec.method, spec.headers);
    let attempt = 0;
    let rateLimitRetries = 0;
    let refreshed = false;
    for (;;) {
      attempt += 1;
      if (spec.signal?.aborted) throw new RequestAbortedError(spec.operation);
      const token = spec.authenticated ? await this.session.currentToken(spec.operation) : null;
      const tokenId = token === null ? null : tokenFingerprint(token);
      const headers: Record<string, string> = {
        accept: 'application/json, application/problem+json',
        'user-agent': this.userAgent,
        ...spec.headers,
        ...spec.attemptHeaders?.(),
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
          body: requestBody(spec),
          signal: spec.signal ?? null,
          headersTimeout: this.connection.headersTimeoutMs,
          bodyTimeout: this.connection.bodyTimeoutMs,
        });
        const status = response.statusCode;
        if (status === 204 || status === 304) {
          await response.body.dump();
          answer = { status, headers: response.headers, text: '' };
        } else if (spec.sink !== undefined && (status === 200 || status === 206)) {
          await spec.sink({ status, headers: response.headers, body: response.body });
          answer = { status, headers: response.headers, text: '' };
        } else if (spec.bytes === true && status >= 200 && status < 300) {
          answer = { status, headers: response.headers, text: '', bytes: await response.body.arrayBuffer() };
        } else {
          answer = { status, headers: response.headers, text: await response.body.text() };
        }
      } catch (error) {
        const failure = describeTransportFailure(error);
        permit?.release(failure.notSent ? 'not-sent' : null);
        if (spec.signal?.aborted) throw new RequestAbortedError(spec.operation);
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
        const refresh = reason === 'token-expired' && !refreshed && this.session.canRefresh;
        reportAnswer(refresh);
        if (refresh) {
          refreshed = true;
          await this.session.refreshAfterExpiry(spec.operation, tokenId);
          attempt -= 1;
          continue;
        }
        throw this.session.signOut(spec.operation, tokenId, reason, problem.requestId);
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

  private async acquire(spec: RequestSpec): Promise<RatePermit> {
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
}

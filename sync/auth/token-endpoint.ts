// The OAuth token endpoint, `{auth_url}/oauth/token`: one form-encoded POST
// (a code exchange or a refresh), its answer validated, its failures typed.
import { inspect } from 'node:util';
import { type Dispatcher, request } from 'undici';
import { z } from 'zod';
import {
  AuthServerUnavailableError,
  OAuthProtocolError,
  type OAuthStage,
  SignInAttemptEndedError,
  TokenResponseInvalidError,
} from './auth-errors';
import { REDACTED } from './redaction';

/**
 * RFC 6749 5.1: `access_token` and `token_type` are required; `expires_in`,
 * `refresh_token` and `scope` are optional, and `org_id` is only what gaps.md
 * assumes of our service, so each may be absent or null (and a value that is
 * not what it should be is read as absent: it must not end a sign-in). Anything
 * extra is ignored.
 */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  // RFC 6749 7.1: the type is case-insensitive.
  token_type: z.string().refine((type) => type.toLowerCase() === 'bearer'),
  // Some servers send the lifetime as a numeric string.
  expires_in: z
    .union([z.number(), z.string().regex(/^\d+$/).transform(Number)])
    .pipe(z.number().positive())
    .nullish()
    .catch(undefined),
  refresh_token: z.string().min(1).nullish().catch(undefined),
  scope: z.string().nullish().catch(undefined),
  org_id: z.string().min(1).nullish().catch(undefined),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/**
 * What a code exchange or refresh gives. The tokens are kept in private
 * fields, and printing or serialising a grant shows `[redacted]`, so a stray
 * log line or crash report cannot carry them.
 */
export class TokenGrant {
  readonly #accessToken: string;
  readonly #refreshToken: string | null;

  constructor(
    accessToken: string,
    /** Null when the server gave none (RFC 6749 5.1 makes it optional): the session lasts as long as the access token. */
    refreshToken: string | null,
    /**
     * When the access token expires, in ms since the epoch (counted from when
     * the request was sent); null when the server did not say (`expires_in`
     * absent): valid until the service answers 401.
     */
    readonly expiresAt: number | null,
    /** The scopes granted; the ones asked for when the answer did not say (RFC 6749 5.1). */
    readonly scopes: readonly string[],
    /** The organization, when the answer names one (our service's addition); else ask `/v1/me`. */
    readonly orgId: string | null,
  ) {
    this.#accessToken = accessToken;
    this.#refreshToken = refreshToken;
  }

  get accessToken(): string {
    return this.#accessToken;
  }
  get refreshToken(): string | null {
    return this.#refreshToken;
  }

  toJSON(): Record<string, unknown> {
    return {
      accessToken: REDACTED,
      refreshToken: this.#refreshToken === null ? null : REDACTED,
      expiresAt: this.expiresAt,
      scopes: this.scopes,
      orgId: this.orgId,
    };
  }
  [inspect.custom](): string {
    return `TokenGrant ${JSON.stringify(this.toJSON())}`;
  }
}

export interface TokenRequestOptions {
  stage: OAuthStage;
  /** undici dispatcher (tests, proxies); default the global one. */
  dispatcher?: Dispatcher;
  /** Ending the attempt aborts the request; the rejection is then the signal's SignInAttemptEndedError. */
  signal?: AbortSignal;
  now: () => number;
  /** Redacted from any server text that reaches an error (the refresh token, the code...). */
  knownSecrets: readonly string[];
  /** Header and body timeouts; default 30 s. */
  timeoutMs?: number;
  /**
   * The scopes to assume when the answer has no `scope`: those asked for on a
   * code exchange, those already granted on a refresh (RFC 6749 5.1 and 6).
   */
  assumedScopes?: readonly string[];
}

export const DEFAULT_TOKEN_REQUEST_TIMEOUT_MS = 30_000;

export async function requestTokens(
  tokenEndpoint: URL,
  form: Record<string, string>,
  options: TokenRequestOptions,
): Promise<TokenGrant> {
  const { stage, signal } = options;
  const sentAt = options.now();
  const timeout = options.timeoutMs ?? DEFAULT_TOKEN_REQUEST_TIMEOUT_MS;
  let status: number;
  let text: string;
  try {
    const response = await request(tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams(form).toString(),
      headersTimeout: timeout,
      bodyTimeout: timeout,
      ...(options.dispatcher ? { dispatcher: options.dispatcher } : {}),
      ...(signal ? { signal } : {}),
    });
    status = response.statusCode;
    text = await response.body.text();
  } catch {
    if (signal?.aborted) {
      throw signal.reason instanceof SignInAttemptEndedError
        ? signal.reason
        : new SignInAttemptEndedError('cancelled');
    }
    // The cause (undici's error) is dropped on purpose: nothing of the request may leak through it.
    throw new AuthServerUnavailableError(stage, null);
  }

  const body = parseJson(text);
  if (status >= 200 && status < 300) {
    const parsed = tokenResponseSchema.safeParse(body);
    if (!parsed.success) {
      // Paths only: zod's messages may quote the values, and the values may be tokens.
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.') || '(body)'))];
      throw new TokenResponseInvalidError(stage, fields);
    }
    const answer = parsed.data;
    const scopes =
      typeof answer.scope === 'string'
        ? answer.scope.split(' ').filter((scope) => scope !== '')
        : [...(options.assumedScopes ?? [])];
    return new TokenGrant(
      answer.access_token,
      answer.refresh_token ?? null,
      typeof answer.expires_in === 'number' ? sentAt + Math.round(answer.expires_in * 1000) : null,
      scopes,
      answer.org_id ?? null,
    );
  }
  if (status >= 400 && status < 500 && isErrorBody(body)) {
    throw OAuthProtocolError.fromWire(stage, body.error, body.error_description, options.knownSecrets);
  }
  throw new AuthServerUnavailableError(stage, status);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isErrorBody(body: unknown): body is { error: string; error_description?: unknown } {
  return typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string';
}

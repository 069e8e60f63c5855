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

/** The documented answer (gaps.md, OAuth): strict on these fields, anything extra is ignored. */
export const tokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  // RFC 6749 7.1: the type is case-insensitive.
  token_type: z.string().refine((type) => type.toLowerCase() === 'bearer'),
  expires_in: z.number().int().positive(),
  refresh_token: z.string().min(1),
  scope: z.string(),
  org_id: z.string().min(1),
});
export type TokenResponse = z.infer<typeof tokenResponseSchema>;

/**
 * What a code exchange or refresh gives. The tokens are kept in private
 * fields, and printing or serialising a grant shows `[redacted]`, so a stray
 * log line or crash report cannot carry them.
 */
export class TokenGrant {
  readonly #accessToken: string;
  readonly #refreshToken: string;

  constructor(
    accessToken: string,
    refreshToken: string,
    /** When the access token expires, in ms since the epoch (counted from when the request was sent). */
    readonly expiresAt: number,
    readonly scopes: readonly string[],
    readonly orgId: string,
  ) {
    this.#accessToken = accessToken;
    this.#refreshToken = refreshToken;
  }

  get accessToken(): string {
    return this.#accessToken;
  }
  get refreshToken(): string {
    return this.#refreshToken;
  }

  toJSON(): Record<string, unknown> {
    return {
      accessToken: REDACTED,
      refreshToken: REDACTED,
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
    return new TokenGrant(
      answer.access_token,
      answer.refresh_token,
      sentAt + answer.expires_in * 1000,
      answer.scope.split(' ').filter((scope) => scope !== ''),
      answer.org_id,
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

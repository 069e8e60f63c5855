// The loopback end of an RFC 8252 sign-in: a one-shot HTTP listener on
// 127.0.0.1 that waits for the browser's redirect carrying the authorization
// code for one attempt, and closes. The browser's page waits until the app
// says how the sign-in ended (the code exchanged, the account checked), so the
// page and the app never disagree.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import {
  type AttemptEndReason,
  type AuthError,
  IssuerMismatchError,
  LoopbackListenError,
  OAuthProtocolError,
  SignInAttemptEndedError,
} from './auth-errors';

export const LOOPBACK_HOST = '127.0.0.1';
export const DEFAULT_CALLBACK_PATH = '/callback';
export const DEFAULT_ATTEMPT_TIMEOUT_MS = 5 * 60_000;
/** How long the winning browser connection may linger after its answer before it is cut. */
const LINGER_MS = 2_000;

export interface LoopbackListenerOptions {
  /** The `state` of this attempt: only a redirect carrying it is accepted. */
  expectedState: string;
  /** The one path served; default `/callback` (the registered redirect URI's path). */
  path?: string;
  /** Default 0: the OS picks a free port. An explicit port that is taken fails with LoopbackListenError. */
  port?: number;
  /** Give up after this long; default 5 minutes. */
  timeoutMs?: number;
  /** Abort to end the attempt; a SignInAttemptEndedError as the reason is kept (e.g. `superseded`). */
  signal?: AbortSignal;
  /**
   * The authorization server's issuer identifier (RFC 9207). A redirect whose
   * `iss` differs ends the attempt (a mix-up: another server answered); a
   * redirect without `iss` is accepted, as servers need not send it.
   */
  expectedIssuer?: string;
}

/** How the sign-in ended, for the page the waiting browser is shown. */
export type SignInOutcome = { ok: true } | { ok: false; message: string };

export interface LoopbackCallback {
  code: string;
  /**
   * Answers the browser that brought the code (it waits until then). The
   * first call counts; closing the listener unanswered tells it the sign-in
   * did not complete.
   */
  respond(outcome: SignInOutcome): void;
}

export interface LoopbackListener {
  /** The redirect URI to send in the authorization request: `http://127.0.0.1:{port}{path}`. */
  readonly redirectUri: string;
  readonly port: number;
  /**
   * Settles once, when no other request can reach the listener any more: with
   * the code (the browser then waits for `respond`), or rejected with
   * OAuthProtocolError (an error on the redirect, e.g. access_denied),
   * IssuerMismatchError or SignInAttemptEndedError (timeout, cancel, superseded).
   */
  readonly callback: Promise<LoopbackCallback>;
  /** Cancel the attempt (if it is still waiting), answer a browser still waiting, and resolve once closed. */
  close(): Promise<void>;
}

type Outcome = { ok: true; value: LoopbackCallback } | { ok: false; error: Error };

export async function startLoopbackListener(options: LoopbackListenerOptions): Promise<LoopbackListener> {
  const path = options.path ?? DEFAULT_CALLBACK_PATH;
  const timeoutMs = options.timeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS;
  const { signal } = options;
  if (signal?.aborted) throw attemptEndedBy(signal);

  const sockets = new Set<Socket>();
  let outcome: Outcome | undefined;
  let port = 0;
  let settle!: (outcome: Outcome) => void;
  const closed = new Promise<Outcome>((resolve) => (settle = resolve));
  const callback = closed.then((o) => (o.ok ? o.value : Promise.reject(o.error)));
  // Nobody may be awaiting yet (the flow opens the browser first): do not let an early end go unhandled.
  callback.catch(() => undefined);

  /** The genuine redirect's response, held open until the app says how the sign-in ended. */
  let held: ServerResponse | undefined;
  function respond(result: SignInOutcome): void {
    const response = held;
    held = undefined;
    if (!response || response.writableEnded || response.destroyed) return;
    const winner = response.socket;
    // The page is flushed and the connection closed (Connection: close), or cut after a grace period.
    response.on('finish', () => setTimeout(() => winner?.destroy(), LINGER_MS).unref());
    if (result.ok) answer(response, 200, successPage, true);
    else answer(response, 200, failurePage(result.message), true);
  }

  const server = createServer((request, response) => {
    if (outcome) return answer(response, 404, notFoundPage, true);
    const verdict = judge(request);
    if (verdict.kind === 'ignore') return answer(response, verdict.status, verdict.page, false);
    outcome = verdict.outcome;
    const winner = request.socket;
    if (verdict.kind === 'hold') {
      // The code for this attempt: nobody else gets in, and the browser waits for the app's answer.
      held = response;
      response.on('close', () => {
        if (held === response) held = undefined;
      });
      shutDown(winner);
      return;
    }
    // A failed redirect: tell the browser now, then close everything.
    response.on('finish', () => shutDown(winner));
    // A browser that hangs up before the page is sent must not leave the attempt open either.
    response.on('close', () => shutDown(winner));
    answer(response, verdict.status, verdict.page, true);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_error, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      reject(new LoopbackListenError(options.port ?? 0, error.code ?? null));
    });
    server.listen({ host: LOOPBACK_HOST, port: options.port ?? 0, exclusive: true }, () => resolve());
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new LoopbackListenError(options.port ?? 0, null);
  port = address.port;
  const expectedHost = `${LOOPBACK_HOST}:${port}`;

  const timer = setTimeout(() => end('timeout'), timeoutMs);
  const onAbort = (): void => end(signal ? attemptEndedBy(signal) : 'cancelled');
  signal?.addEventListener('abort', onAbort, { once: true });

  let serverClosed: Promise<void> | undefined;
  /** Close the listener; `winner` is the connection that carried the genuine redirect, if any. */
  function shutDown(winner?: Socket): void {
    if (serverClosed) return;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    const codeHeld = outcome?.ok === true;
    // A failure page is flushed within the grace period; a held browser waits for the app (the token
    // request's own timeout bounds that), and close() answers it if the app never does.
    const linger = codeHeld
      ? undefined
      : setTimeout(() => sockets.forEach((socket) => socket.destroy()), LINGER_MS);
    serverClosed = new Promise<void>((resolve) =>
      server.close(() => {
        clearTimeout(linger);
        resolve();
      }),
    );
    // Strays and idle keep-alive connections go now. The winner ends itself once its page is
    // flushed (Connection: close), or is cut when the grace period is over.
    for (const socket of sockets) if (socket !== winner) socket.destroy();
    // Nobody can reach the listener any more: a held code is handed on now, a failure once closed.
    const settleNow = (): void =>
      settle(outcome ?? { ok: false, error: new SignInAttemptEndedError('cancelled') });
    if (codeHeld) settleNow();
    else void serverClosed.then(settleNow);
  }

  function end(reason: AttemptEndReason | SignInAttemptEndedError): void {
    if (outcome) return;
    outcome = { ok: false, error: typeof reason === 'string' ? new SignInAttemptEndedError(reason) : reason };
    shutDown();
  }

  type Verdict =
    | { kind: 'ignore'; status: number; page: string }
    | { kind: 'accept'; status: number; page: string; outcome: Outcome }
    | { kind: 'hold'; outcome: Outcome };

  /** The browser came back with a failure: it gets a page saying so, and the attempt ends with it. */
  function failed(status: number, failure: AuthError): Verdict {
    return {
      kind: 'accept',
      status,
      page: failurePage(failure.message),
      outcome: { ok: false, error: failure },
    };
  }

  function judge(request: IncomingMessage): Verdict {
    const target = request.url ?? '';
    // Only origin-form targets on our own host: absolute-form requests and other Host headers
    // (DNS rebinding, a local proxy) are not the browser coming back to us.
    if (request.method !== 'GET' || request.headers.host !== expectedHost || !target.startsWith('/')) {
      return { kind: 'ignore', status: 404, page: notFoundPage };
    }
    const url = new URL(target, `http://${expectedHost}`);
    if (url.pathname !== path) return { kind: 'ignore', status: 404, page: notFoundPage };
    const query = url.searchParams;
    const state = single(query, 'state');
    // A stray or forged request must not end the attempt: refuse it and keep waiting for the genuine one.
    if (state === undefined || !sameSecret(state, options.expectedState)) {
      return { kind: 'ignore', status: 400, page: wrongStatePage };
    }
    // RFC 9207: an answer naming another issuer came from another server than the one asked (mix-up).
    if (options.expectedIssuer !== undefined && query.has('iss')) {
      const issuer = single(query, 'iss');
      if (issuer === undefined || !sameIssuer(issuer, options.expectedIssuer)) {
        return failed(400, new IssuerMismatchError(options.expectedIssuer, issuer ?? null));
      }
    }
    const error = single(query, 'error');
    if (error !== undefined || query.has('error')) {
      return failed(
        200,
        OAuthProtocolError.fromWire('authorization', error, single(query, 'error_description')),
      );
    }
    const code = single(query, 'code');
    if (code === undefined || code === '') {
      return failed(
        400,
        new OAuthProtocolError('authorization', 'invalid_request', 'the browser came back without a code'),
      );
    }
    return { kind: 'hold', outcome: { ok: true, value: { code, respond } } };
  }

  return {
    redirectUri: `http://${expectedHost}${path}`,
    port,
    callback,
    async close() {
      end('cancelled');
      respond({ ok: false, message: 'The app ended this sign-in.' });
      await closed;
      await serverClosed;
    },
  };
}

/** A parameter that appears exactly once (RFC 6749 3.1: parameters must not repeat), else undefined. */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  return values.length === 1 ? values[0] : undefined;
}

/**
 * RFC 9207 compares issuers as strings; a configured `auth_url` may carry a
 * trailing slash the issuer does not (or the reverse), so one is ignored.
 */
function sameIssuer(given: string, expected: string): boolean {
  const trim = (text: string): string => (text.endsWith('/') ? text.slice(0, -1) : text);
  return trim(given) === trim(expected);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function answer(response: ServerResponse, status: number, page: string, closeConnection: boolean): void {
  response.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Length': Buffer.byteLength(page),
    'Cache-Control': 'no-store',
    // The page is static text: no scripts, no requests, and no Referer carrying the code anywhere.
    'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'none'",
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    ...(closeConnection ? { Connection: 'close' } : {}),
  });
  response.end(page);
}

function attemptEndedBy(signal: AbortSignal): SignInAttemptEndedError {
  return signal.reason instanceof SignInAttemptEndedError
    ? signal.reason
    : new SignInAttemptEndedError('cancelled');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, message: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">' +
    `<title>${escapeHtml(title)}</title><style>body{font:16px system-ui,sans-serif;margin:4em auto;max-width:32em;` +
    `padding:0 1em;color:#222}</style></head><body><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></body></html>`
  );
}

const successPage = page(
  'Signed in',
  'You can close this tab and go back to the app: it takes over from here.',
);
const wrongStatePage = page(
  'Not the current sign-in',
  'This page does not belong to the sign-in the app is waiting for. Start the sign-in again from the app if needed.',
);
const notFoundPage = page('Not found', 'There is nothing here.');
function failurePage(explanation: string): string {
  return page(
    'Sign-in did not complete',
    `${explanation} You can close this tab and try again from the app.`,
  );
}

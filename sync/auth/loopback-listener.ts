// The loopback end of an RFC 8252 sign-in: a one-shot HTTP listener on
// 127.0.0.1 that waits for the browser's redirect carrying the authorization
// code for one attempt, answers the browser with a small page, and closes.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { timingSafeEqual } from 'node:crypto';
import {
  type AttemptEndReason,
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
}

export interface LoopbackCallback {
  code: string;
}

export interface LoopbackListener {
  /** The redirect URI to send in the authorization request: `http://127.0.0.1:{port}{path}`. */
  readonly redirectUri: string;
  readonly port: number;
  /**
   * Settles once, after the listener has closed: with the code, or rejected
   * with OAuthProtocolError (an error on the redirect, e.g. access_denied) or
   * SignInAttemptEndedError (timeout, cancel, superseded).
   */
  readonly callback: Promise<LoopbackCallback>;
  /** Cancel the attempt (if it is still waiting) and resolve once closed. */
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

  const server = createServer((request, response) => {
    if (outcome) return answer(response, 404, notFoundPage, true);
    const verdict = judge(request);
    if (verdict.kind === 'ignore') return answer(response, verdict.status, verdict.page, false);
    // The genuine redirect for this attempt: answer the browser, then close everything.
    outcome = verdict.outcome;
    const winner = request.socket;
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

  let shuttingDown = false;
  /** Close the listener; `winner` is the connection that carried the genuine redirect, if any. */
  function shutDown(winner?: Socket): void {
    if (shuttingDown) return;
    shuttingDown = true;
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    const linger = setTimeout(() => sockets.forEach((socket) => socket.destroy()), LINGER_MS);
    server.close(() => {
      clearTimeout(linger);
      settle(outcome ?? { ok: false, error: new SignInAttemptEndedError('cancelled') });
    });
    // Strays and idle keep-alive connections go now. The winner ends itself once its page is
    // flushed (Connection: close), or is cut when the grace period is over.
    for (const socket of sockets) if (socket !== winner) socket.destroy();
  }

  function end(reason: AttemptEndReason | SignInAttemptEndedError): void {
    if (outcome) return;
    outcome = { ok: false, error: typeof reason === 'string' ? new SignInAttemptEndedError(reason) : reason };
    shutDown();
  }

  type Verdict =
    | { kind: 'ignore'; status: number; page: string }
    | { kind: 'accept'; status: number; page: string; outcome: Outcome };

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
    const error = single(query, 'error');
    if (error !== undefined || query.has('error')) {
      const failure = OAuthProtocolError.fromWire('authorization', error, single(query, 'error_description'));
      return {
        kind: 'accept',
        status: 200,
        page: failurePage(failure.message),
        outcome: { ok: false, error: failure },
      };
    }
    const code = single(query, 'code');
    if (code === undefined || code === '') {
      const failure = new OAuthProtocolError(
        'authorization',
        'invalid_request',
        'the browser came back without a code',
      );
      return {
        kind: 'accept',
        status: 400,
        page: failurePage(failure.message),
        outcome: { ok: false, error: failure },
      };
    }
    return { kind: 'accept', status: 200, page: successPage, outcome: { ok: true, value: { code } } };
  }

  return {
    redirectUri: `http://${expectedHost}${path}`,
    port,
    callback,
    async close() {
      end('cancelled');
      await closed;
    },
  };
}

/** A parameter that appears exactly once (RFC 6749 3.1: parameters must not repeat), else undefined. */
function single(query: URLSearchParams, name: string): string | undefined {
  const values = query.getAll(name);
  return values.length === 1 ? values[0] : undefined;
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

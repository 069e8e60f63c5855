// The one gate between the renderer and main: registers handlers from maps,
// checks every caller, validates every input and output against the contract
// (a page of rows by its envelope only),
// answers in the `{ok, value | error}` envelope, and sends every event.
// Electron is injected (`IpcMainLike`, `WebContentsLike`) so this runs in Node tests.
import {
  InvalidEditError,
  MirrorStorageError,
  NotInMirrorError,
  OutboxStateError,
} from '../../db/mirror-errors';
import { OutboxReviewError } from '../../db/outbox/outbox-review';
import { InvalidParameterError } from '../../protocol/task-list-query';
import { AccountError, TokenNotAcceptedError } from '../../sync/accounts/account-errors';
import { ApiError, NetworkError, ProblemError, SignedOutError } from '../../sync/api/errors';
import { AuthError } from '../../sync/auth/auth-errors';
import {
  eventChannels,
  invokeChannels,
  isEventName,
  isInvokeChannel,
  type EventName,
  type EventPayloadInput,
  type HandlerInput,
  type HandlerOutput,
  type InvokeChannel,
} from '../../ipc/contract';
import {
  EVENT_TRANSPORT_CHANNEL,
  INVOKE_TRANSPORT_CHANNEL,
  type EventMessage,
  type GateErrorType,
  type IpcResult,
} from '../../ipc/transport';

/** The part of a frame the sender check reads (Electron's `WebFrameMain`). */
export interface SenderFrameLike {
  readonly url: string;
  /** Null for a top-level frame; subframes never talk to main. */
  readonly parent: unknown;
}

/** The part of `IpcMainInvokeEvent` the gate reads. */
export interface InvokeEventLike {
  readonly sender: { readonly id: number };
  readonly senderFrame: SenderFrameLike | null;
}

/** The part of Electron's `ipcMain` the gate uses. */
export interface IpcMainLike {
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void;
  removeHandler(channel: string): void;
}

/** The part of Electron's `WebContents` the gate uses to trust a window and send it events. */
export interface WebContentsLike {
  readonly id: number;
  isDestroyed(): boolean;
  send(channel: string, ...args: unknown[]): void;
  once(event: 'destroyed', listener: () => void): unknown;
}

export interface HandlerContext {
  /** `webContents.id` of the window that called. */
  readonly senderId: number;
  /**
   * Aborted once that window is closed (destroyed): a long job only it waits
   * for (a list's count at a million tasks) stops instead of running for nobody.
   */
  readonly senderGone: AbortSignal;
}

export type IpcHandler<C extends InvokeChannel> = (
  input: HandlerInput<C>,
  context: HandlerContext,
) => HandlerOutput<C> | Promise<HandlerOutput<C>>;

/** A handler map: any subset of the contract's calls. */
export type IpcHandlers = { readonly [C in InvokeChannel]?: IpcHandler<C> };

/** Thrown by a handler to answer `{ok: false, error: {type, message}}` with a type the renderer can branch on. */
export class IpcHandlerError extends Error {
  override readonly name = 'IpcHandlerError';
  constructor(
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The one table from the typed errors of what handlers call (the mirror, the
 * outbox review, the query parser, sign-in and the API client) to the answers
 * the screens branch on, so a `locked` mirror reads the same from every
 * handler. Anything else is `internal`: the page never sees what it did not expect.
 */
export function handlerErrorOf(error: unknown): IpcHandlerError | null {
  if (error instanceof IpcHandlerError) return error;
  if (error instanceof InvalidParameterError) return new IpcHandlerError('invalid-parameter', error.message);
  if (error instanceof InvalidEditError) return new IpcHandlerError('validation', error.message);
  if (error instanceof NotInMirrorError) return new IpcHandlerError('not-found', error.message);
  if (error instanceof MirrorStorageError)
    return new IpcHandlerError(`storage-${error.problem}`, error.message);
  if (error instanceof OutboxReviewError) return new IpcHandlerError(error.type, error.message);
  if (error instanceof OutboxStateError) return new IpcHandlerError('not-retryable', error.message);
  if (error instanceof TokenNotAcceptedError) return new IpcHandlerError(error.reason, error.message);
  if (error instanceof AccountError || error instanceof AuthError) {
    return new IpcHandlerError(error.type, error.message);
  }
  if (error instanceof SignedOutError) return new IpcHandlerError(error.reason, error.message);
  if (error instanceof ProblemError) return new IpcHandlerError(error.type, error.message);
  if (error instanceof NetworkError) return new IpcHandlerError('network', error.message);
  if (error instanceof ApiError) return new IpcHandlerError(error.kind, error.message);
  return null;
}

/** A programming error in how the gate is wired (duplicate or unknown handler, undeclared event). */
export class IpcWiringError extends Error {
  override readonly name = 'IpcWiringError';
}

export interface IpcGateOptions {
  readonly ipcMain: IpcMainLike;
  /** Whether a frame URL is one of our pages (see main/security/app-protocol.ts). */
  readonly isTrustedPageUrl: (url: string) => boolean;
  /** Told about calls that failed inside main without an `IpcHandlerError`; the page only sees `internal`. */
  readonly onInternalError?: (channel: string, error: unknown) => void;
  /**
   * Settles once the app's handlers are registered (the accounts opened). The
   * window opens before: until then a call nobody handles yet waits for it
   * instead of being answered `unavailable`.
   */
  readonly startup?: Promise<unknown>;
}

export interface IpcGate {
  /** Registers a handler map; throws `IpcWiringError` for a channel not in the contract or already handled. */
  register(handlers: IpcHandlers): void;
  /** Accepts calls from this window's top frame (while it shows our page) and sends it events; forgotten when destroyed. */
  trust(webContents: WebContentsLike): void;
  /** Sends an event to every trusted window; the payload is checked against the contract first. */
  emit<E extends EventName>(event: E, payload: EventPayloadInput<E>): void;
  /** Stops answering calls. */
  close(): void;
}

export function createIpcGate(options: IpcGateOptions): IpcGate {
  const handlers = new Map<InvokeChannel, IpcHandler<InvokeChannel>>();
  const trusted = new Map<number, WebContentsLike>();
  /** Per trusted window, what aborts its calls' `senderGone` once it is destroyed. */
  const closing = new Map<number, AbortController>();
  let starting: Promise<unknown> | null = options.startup ?? null;
  void starting?.then(
    () => (starting = null),
    () => (starting = null),
  );

  const refuse = (type: GateErrorType | (string & {}), message: string): IpcResult<never> => ({
    ok: false,
    error: { type, message },
  });

  async function answer(event: InvokeEventLike, request: unknown): Promise<IpcResult<unknown>> {
    if (!isTrustedSender(event, trusted, options.isTrustedPageUrl)) {
      return refuse('untrusted-sender', 'This page may not talk to the app.');
    }
    const channel = requestChannel(request);
    if (channel === null || !isInvokeChannel(channel)) {
      return refuse('unknown-channel', `No such call: ${String(channel)}.`);
    }
    if (!handlers.has(channel) && starting !== null) await starting.catch(() => undefined);
    const handler = handlers.get(channel);
    if (!handler) return refuse('unavailable', `${channel} is not available right now.`);

    const declared = invokeChannels[channel];
    const inputSchema = declared.input;
    // Rows our own code built are passed on as they are (see the contract's `envelope`); the renderer's input never is.
    const outputSchema = 'envelope' in declared ? declared.envelope : declared.output;
    const input = inputSchema.safeParse((request as { input?: unknown }).input);
    if (!input.success) {
      return refuse('invalid-input', `Invalid input for ${channel}: ${summarizeIssues(input.error.issues)}`);
    }
    let value: unknown;
    try {
      const senderGone = closing.get(event.sender.id)?.signal ?? AbortSignal.abort();
      value = await handler(input.data, { senderId: event.sender.id, senderGone });
    } catch (error) {
      const answered = handlerErrorOf(error);
      if (answered !== null) return refuse(answered.type, answered.message);
      options.onInternalError?.(channel, error);
      return refuse('internal', `${channel} failed inside the app.`);
    }
    const output = outputSchema.safeParse(value);
    if (!output.success) {
      options.onInternalError?.(channel, output.error);
      return refuse('internal', `${channel} answered something the contract does not allow.`);
    }
    return { ok: true, value: output.data };
  }

  options.ipcMain.handle(INVOKE_TRANSPORT_CHANNEL, (event, request) => answer(event, request));

  return {
    register(map) {
      for (const [channel, handler] of Object.entries(map)) {
        if (!isInvokeChannel(channel))
          throw new IpcWiringError(`${channel} is not a call in the IPC contract`);
        if (typeof handler !== 'function')
          throw new IpcWiringError(`the handler for ${channel} is not a function`);
        if (handlers.has(channel)) throw new IpcWiringError(`${channel} already has a handler`);
      }
      // Checked first, added after: a refused map leaves no half-registered channels behind.
      for (const [channel, handler] of Object.entries(map)) {
        handlers.set(channel as InvokeChannel, handler);
      }
    },
    trust(webContents) {
      trusted.set(webContents.id, webContents);
      const gone = new AbortController();
      closing.set(webContents.id, gone);
      webContents.once('destroyed', () => {
        trusted.delete(webContents.id);
        closing.delete(webContents.id);
        gone.abort();
      });
    },
    emit(event, payload) {
      if (!isEventName(event))
        throw new IpcWiringError(`${String(event)} is not an event in the IPC contract`);
      const message: EventMessage = { name: event, payload: eventChannels[event].parse(payload) };
      for (const webContents of trusted.values()) {
        if (!webContents.isDestroyed()) webContents.send(EVENT_TRANSPORT_CHANNEL, message);
      }
    },
    close() {
      options.ipcMain.removeHandler(INVOKE_TRANSPORT_CHANNEL);
      handlers.clear();
    },
  };
}

/**
 * A call is ours when it comes from a window we created, from its top frame,
 * and that frame shows one of our pages: a window that somehow navigated away,
 * or an embedded frame, gets no answer but a refusal.
 */
export function isTrustedSender(
  event: InvokeEventLike,
  trusted: ReadonlyMap<number, unknown>,
  isTrustedPageUrl: (url: string) => boolean,
): boolean {
  const frame = event.senderFrame;
  if (!trusted.has(event.sender.id) || frame === null) return false;
  return frame.parent === null && isTrustedPageUrl(frame.url);
}

function requestChannel(request: unknown): string | null {
  if (typeof request !== 'object' || request === null) return null;
  const channel = (request as { channel?: unknown }).channel;
  return typeof channel === 'string' ? channel : null;
}

function summarizeIssues(issues: readonly { path: readonly PropertyKey[]; message: string }[]): string {
  return issues
    .slice(0, 5)
    .map((issue) =>
      issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${issue.message}` : issue.message,
    )
    .join('; ');
}

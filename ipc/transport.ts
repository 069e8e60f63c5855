// The wire between the preload and main: one Electron channel for calls, one
// for events, and the answer envelope. No zod and no electron here, so the
// sandboxed preload can bundle it without pulling in dependencies.

/** The only channel the preload invokes; the contract's channel name travels inside. */
export const INVOKE_TRANSPORT_CHANNEL = 'svc:invoke';
/** The only channel main sends events on; the event name travels inside. */
export const EVENT_TRANSPORT_CHANNEL = 'svc:event';

export interface InvokeRequest {
  readonly channel: string;
  readonly input: unknown;
}

export interface EventMessage {
  readonly name: string;
  readonly payload: unknown;
}

/**
 * Why a call failed. The gate's own reasons are listed in `GATE_ERROR_TYPES`;
 * handlers add their own (`url-refused`, or a service problem type name).
 */
export interface IpcError {
  readonly type: string;
  readonly message: string;
}

export type IpcResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcError };

export const GATE_ERROR_TYPES = [
  /** The channel is not in the contract. */
  'unknown-channel',
  /** The channel is declared but nothing in main answers it yet (e.g. before sign-in wiring). */
  'unavailable',
  /** The input does not match the channel's input schema. */
  'invalid-input',
  /** The call came from a frame that is not our page. */
  'untrusted-sender',
  /** The handler failed in a way it did not name; details go to main's log, not to the page. */
  'internal',
] as const;
export type GateErrorType = (typeof GATE_ERROR_TYPES)[number];

// The page's one way to the app: `window.svc`, put there by the preload (or,
// in the end-to-end host, by its bridge shim), typed from the IPC contract.
import type {
  BridgeError,
  EventName,
  EventPayload,
  InvokeArgs,
  InvokeChannel,
  InvokeOutput,
  SvcBridge,
} from '../../../ipc/contract';

declare global {
  interface Window {
    readonly svc: SvcBridge;
  }
}

export function invoke<C extends InvokeChannel>(
  channel: C,
  ...input: InvokeArgs<C>
): Promise<InvokeOutput<C>> {
  return window.svc.invoke(channel, ...input);
}

export function subscribe<E extends EventName>(
  event: E,
  listener: (payload: EventPayload<E>) => void,
): () => void {
  return window.svc.on(event, listener);
}

/** The `type` of a failed call (`BridgeError.type`), or `internal` for anything else thrown. */
export function errorType(error: unknown): string {
  if (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as Partial<BridgeError>).type === 'string'
  ) {
    return (error as BridgeError).type;
  }
  return 'internal';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// Builds `window.svc` (the `SvcBridge` of ipc/contract.ts) in the page's
// own world, from the two functions the preload passes in. The preload runs it
// through contextBridge.executeInMainWorld, which sends this function's SOURCE:
// it must stay self-contained (no imports used at runtime, no outer names).
// Building it in the page's world is what lets `invoke` reject with a real
// Error that keeps its `type` (errors crossing the bridge keep only `message`).
import type { SvcBridge } from '../ipc/contract';

/** Sends one call to main; resolves with main's `{ok, value | error}` envelope. */
export type InvokeInMain = (channel: string, input: unknown) => Promise<unknown>;
/** Asks for every event main sends; called once. */
export type SubscribeToMain = (deliver: (name: string, payload: unknown) => void) => void;

export function installSvcBridge(invokeInMain: InvokeInMain, subscribeToMain: SubscribeToMain): void {
  class BridgeError extends Error {
    override readonly name = 'BridgeError';
    constructor(
      readonly type: string,
      message: string,
      readonly channel: string,
    ) {
      super(message);
    }
  }

  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  subscribeToMain((name, payload) => {
    for (const listener of [...(listeners.get(name) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        // One failing listener must not starve the others; the error still reaches window.onerror.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  });

  async function invoke(channel: string, input?: unknown): Promise<unknown> {
    let answer: unknown;
    try {
      answer = await invokeInMain(String(channel), input);
    } catch {
      throw new BridgeError('internal', 'The app did not answer.', String(channel));
    }
    if (typeof answer === 'object' && answer !== null) {
      const envelope = answer as {
        ok?: unknown;
        value?: unknown;
        error?: { type?: unknown; message?: unknown };
      };
      if (envelope.ok === true) return envelope.value;
      if (envelope.ok === false && typeof envelope.error?.type === 'string') {
        const message =
          typeof envelope.error.message === 'string' ? envelope.error.message : envelope.error.type;
        throw new BridgeError(envelope.error.type, message, String(channel));
      }
    }
    throw new BridgeError(
      'internal',
      'The app answered in a form the page does not understand.',
      String(channel),
    );
  }

  function on(event: string, listener: (payload: unknown) => void): () => void {
    if (typeof listener !== 'function') throw new TypeError('svc.on needs a listener function');
    const name = String(event);
    // Each subscription gets its own entry, so subscribing the same function twice needs two unsubscribes.
    const entry = (payload: unknown) => listener(payload);
    let set = listeners.get(name);
    if (set === undefined) {
      set = new Set();
      listeners.set(name, set);
    }
    set.add(entry);
    return () => {
      listeners.get(name)?.delete(entry);
    };
  }

  const svc = Object.freeze({ invoke, on }) as unknown as SvcBridge;
  Object.defineProperty(globalThis, 'svc', {
    value: svc,
    enumerable: true,
    writable: false,
    configurable: false,
  });
}

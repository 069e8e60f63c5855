// The real IPC gate with trusted pages, for handler tests: a call goes in as
// the page's would (channel and input through the one invoke transport, from a
// trusted window) and comes back as the page sees it, an IpcResult.
import type { InvokeChannel, InvokeOutput } from '../../../ipc/contract';
import { createIpcGate, type IpcGate, type InvokeEventLike } from '../gate';
import { INVOKE_TRANSPORT_CHANNEL, type IpcResult } from '../../../ipc/transport';

export interface GateHarness {
  gate: IpcGate;
  /** A call from the first trusted window (or `senderId`, one of `windows`). */
  call: <C extends InvokeChannel>(
    channel: C,
    input?: unknown,
    senderId?: number,
  ) => Promise<IpcResult<InvokeOutput<C>>>;
  /** A call's value; a refused call throws with its error type and message. */
  value: <C extends InvokeChannel>(channel: C, input?: unknown) => Promise<InvokeOutput<C>>;
  /** The window closes: Electron destroys its webContents. */
  closeWindow: (id: number) => void;
}

const PAGE_URL = 'app://svc-desktop/';

/**
 * The real gate over an ipcMain that hands its one invoke listener to the test:
 * `invoke` is what Electron would call for a page's request (channel and input).
 */
export function gateWithInvoke(isTrustedPageUrl: (url: string) => boolean): {
  gate: IpcGate;
  invoke: (event: InvokeEventLike, request: { channel: string; input: unknown }) => Promise<unknown>;
} {
  let answer: ((event: InvokeEventLike, request: unknown) => Promise<unknown>) | null = null;
  const gate = createIpcGate({
    ipcMain: {
      handle: (channel, listener) => {
        if (channel === INVOKE_TRANSPORT_CHANNEL) answer = listener;
      },
      removeHandler: () => undefined,
    },
    isTrustedPageUrl,
  });
  const invoke = (event: InvokeEventLike, request: { channel: string; input: unknown }) => {
    if (!answer) throw new Error('the gate registered no invoke handler');
    return answer(event, request);
  };
  return { gate, invoke };
}

/** A gate trusting the windows of these webContents ids (default one window, id 7). */
export function gateHarness(windows: readonly number[] = [7]): GateHarness {
  const { gate, invoke } = gateWithInvoke((url) => url.startsWith(PAGE_URL));
  /** Each open window's 'destroyed' listener (the gate's). */
  const onDestroyed = new Map<number, () => void>();
  const closed = new Set<number>();
  for (const id of windows) {
    gate.trust({
      id,
      isDestroyed: () => closed.has(id),
      send: () => undefined,
      once: (_event, listener) => onDestroyed.set(id, listener),
    });
  }
  const harness: GateHarness = {
    gate,
    call: async (channel, input, senderId = windows[0] ?? 7) => {
      const event: InvokeEventLike = {
        sender: { id: senderId },
        senderFrame: { url: PAGE_URL, parent: null },
      };
      return (await invoke(event, { channel, input })) as never;
    },
    value: async (channel, input) => {
      const result = await harness.call(channel, input);
      if (!result.ok) throw new Error(`${channel} failed: ${result.error.type}: ${result.error.message}`);
      return result.value;
    },
    closeWindow: (id) => {
      closed.add(id);
      onDestroyed.get(id)?.();
      onDestroyed.delete(id);
    },
  };
  return harness;
}

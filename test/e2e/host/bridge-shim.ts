// The page-side bridge of the end-to-end host: the preload's own
// `installSvcBridge` (preload/bridge.ts), sent as source exactly as Electron's
// executeInMainWorld sends it, with `invoke` carried by fetch and events by
// EventSource instead of Electron IPC. Served same-origin, so the app's CSP
// (script-src 'self', connect-src 'self') allows it as it is.
import { installSvcBridge } from '../../../preload/bridge';

export const BRIDGE_SHIM_PATH = '/__e2e/svc-bridge.js';
export const INVOKE_PATH = '/__svc/invoke';
export const EVENTS_PATH = '/__svc/events';
/** The Server-Timing metric on each invoke's answer: main's time answering the call (the ui benchmark's breakdown). */
export const MAIN_TIMING = 'gate';
/**
 * Bytes (a dropped file's) cross Electron's IPC as a Uint8Array by structured
 * clone; over this host's JSON they travel as `{ [BYTES_KEY]: base64 }`, turned
 * back into a Uint8Array by `reviveBytes` before the gate sees them.
 */
export const BYTES_KEY = '__svcBytes';

/** JSON.parse's reviver for the invoke body: the bytes the page sent, as main gets them from Electron. */
export function reviveBytes(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const encoded = (value as Record<string, unknown>)[BYTES_KEY];
  if (typeof encoded !== 'string' || Object.keys(value).length !== 1) return value;
  return new Uint8Array(Buffer.from(encoded, 'base64'));
}

/** The script's text. `__name` is the helper a TypeScript runner adds to functions; the page lacks it. */
export function bridgeShimSource(): string {
  return `(() => {
  'use strict';
  const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });
  const install = (${installSvcBridge.toString()});
  const bytesOut = (key, value) => {
    if (!(value instanceof Uint8Array)) return value;
    let binary = '';
    for (let at = 0; at < value.length; at += 0x8000)
      binary += String.fromCharCode.apply(null, value.subarray(at, at + 0x8000));
    return { ${JSON.stringify(BYTES_KEY)}: btoa(binary) };
  };
  const invokeInMain = async (channel, input) => {
    // The channel in the query string only names the request in the browser's network log.
    const response = await fetch(${JSON.stringify(INVOKE_PATH)} + '?' + encodeURIComponent(channel), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel, input }, bytesOut),
    });
    if (!response.ok) throw new Error('the host answered ' + response.status);
    return response.json();
  };
  const subscribeToMain = (deliver) => {
    const source = new EventSource(${JSON.stringify(EVENTS_PATH)});
    source.onmessage = (message) => {
      const event = JSON.parse(message.data);
      deliver(event.name, event.payload);
    };
  };
  install(invokeInMain, subscribeToMain);
})();
`;
}

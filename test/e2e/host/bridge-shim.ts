// The page-side bridge of the end-to-end host: the preload's own
// `installSvcBridge` (preload/bridge.ts), sent as source exactly as Electron's
// executeInMainWorld sends it, with `invoke` carried by fetch and events by
// EventSource instead of Electron IPC. Served same-origin, so the app's CSP
// (script-src 'self', connect-src 'self') allows it as it is.
import { installSvcBridge } from '../../../preload/bridge';

export const BRIDGE_SHIM_PATH = '/__e2e/svc-bridge.js';
export const INVOKE_PATH = '/__svc/invoke';
export const EVENTS_PATH = '/__svc/events';

/** The script's text. `__name` is the helper a TypeScript runner adds to functions; the page lacks it. */
export function bridgeShimSource(): string {
  return `(() => {
  'use strict';
  const __name = (target, value) => Object.defineProperty(target, 'name', { value, configurable: true });
  const install = (${installSvcBridge.toString()});
  const invokeInMain = async (channel, input) => {
    // The channel in the query string only names the request in the browser's network log.
    const response = await fetch(${JSON.stringify(INVOKE_PATH)} + '?' + encodeURIComponent(channel), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel, input }),
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

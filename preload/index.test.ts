// The preload as Electron runs it, with Electron's two preload modules stood in:
// executeInMainWorld runs the function from its source in a separate world.
import { createContext, runInContext, type Context } from 'node:vm';
import { beforeAll, expect, test, vi } from 'vitest';
import type { SvcBridge } from '../ipc/contract';
import { EVENT_TRANSPORT_CHANNEL, INVOKE_TRANSPORT_CHANNEL } from '../ipc/transport';

const electron = vi.hoisted(() => {
  const invoked: { channel: string; args: unknown[] }[] = [];
  const subscriptions: { channel: string; listener: (event: unknown, ...args: unknown[]) => void }[] = [];
  const state: { world?: Context; namesBefore?: string[] } = {};
  const ipcRenderer = {
    invoke(channel: string, ...args: unknown[]) {
      invoked.push({ channel, args });
      return Promise.resolve({
        ok: true,
        value: { name: 'svc-desktop', version: '0.1.0', platform: 'linux' },
      });
    },
    on(channel: string, listener: (event: unknown, ...args: unknown[]) => void) {
      subscriptions.push({ channel, listener });
      return ipcRenderer;
    },
    send() {
      throw new Error('the preload never sends');
    },
  };
  return { invoked, subscriptions, state, ipcRenderer };
});

vi.mock('electron', () => ({
  ipcRenderer: electron.ipcRenderer,
  contextBridge: {
    exposeInMainWorld() {
      throw new Error('the preload builds its object in the main world instead');
    },
    executeInMainWorld({ func, args }: { func: (...args: unknown[]) => unknown; args?: unknown[] }) {
      const world = createContext({ queueMicrotask });
      electron.state.world = world;
      electron.state.namesBefore = runInContext('Object.getOwnPropertyNames(globalThis)', world) as string[];
      const inWorld = runInContext(`(${func.toString()})`, world) as (...args: unknown[]) => unknown;
      return inWorld(...(args ?? []));
    },
  },
}));

let world: Context;
let svc: SvcBridge;
beforeAll(async () => {
  await import('./index');
  if (!electron.state.world) throw new Error('the preload did not run anything in the main world');
  world = electron.state.world;
  svc = (world as { svc: SvcBridge }).svc;
});

test('puts exactly one thing on the page: svc', () => {
  const namesAfter = runInContext('Object.getOwnPropertyNames(globalThis)', world) as string[];
  expect(namesAfter.filter((name) => !electron.state.namesBefore?.includes(name))).toEqual(['svc']);
});

test('sends every call over the one invoke channel with the contract channel inside', async () => {
  expect(await svc.invoke('app:info')).toEqual({ name: 'svc-desktop', version: '0.1.0', platform: 'linux' });
  expect(electron.invoked).toEqual([
    { channel: INVOKE_TRANSPORT_CHANNEL, args: [{ channel: 'app:info', input: undefined }] },
  ]);
});

test('listens to the one event channel, once, and gives the page the payload and nothing of the IPC event', () => {
  expect(electron.subscriptions.map((subscription) => subscription.channel)).toEqual([
    EVENT_TRANSPORT_CHANNEL,
  ]);
  const received: unknown[][] = [];
  svc.on('settings:changed', (...args: unknown[]) => received.push(args));
  const ipcEvent = { sender: electron.ipcRenderer, senderId: 0, ports: [] };
  electron.subscriptions[0]?.listener(ipcEvent, { name: 'settings:changed', payload: { theme: 'dark' } });
  expect(received).toEqual([[{ theme: 'dark' }]]);
});

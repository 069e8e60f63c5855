import { createContext, runInContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import type { SvcBridge } from '../ipc/contract';
import { installSvcBridge, type InvokeInMain } from './bridge';

/**
 * Installs the bridge the way contextBridge.executeInMainWorld does: from the
 * function's source, in another world that shares nothing with this module.
 */
function installInFreshWorld(invokeInMain: InvokeInMain) {
  // Browsers provide queueMicrotask; here its callbacks are kept so a test can run them.
  const microtasks: (() => void)[] = [];
  const world = createContext({ queueMicrotask: (callback: () => void) => microtasks.push(callback) });
  const install = runInContext(`(${installSvcBridge.toString()})`, world) as typeof installSvcBridge;
  let deliver: (name: string, payload: unknown) => void = () => {};
  install(invokeInMain, (callback) => {
    deliver = callback;
  });
  const svc = (world as { svc?: SvcBridge }).svc;
  if (!svc) throw new Error('the bridge did not install window.svc');
  return { svc, world, microtasks, deliver: (name: string, payload: unknown) => deliver(name, payload) };
}

const answering =
  (answer: unknown): InvokeInMain =>
  () =>
    Promise.resolve(answer);

describe('svc.invoke', () => {
  test('resolves with the value of an ok answer, sending the channel and input', async () => {
    const calls: unknown[][] = [];
    const { svc } = installInFreshWorld((channel, input) => {
      calls.push([channel, input]);
      return Promise.resolve({ ok: true, value: { theme: 'dark' } });
    });
    expect(await svc.invoke('settings:set', { theme: 'dark' })).toEqual({ theme: 'dark' });
    expect(await svc.invoke('app:info')).toEqual({ theme: 'dark' });
    expect(calls).toEqual([
      ['settings:set', { theme: 'dark' }],
      ['app:info', undefined],
    ]);
  });

  test('rejects with an Error that keeps the type, message and channel of a refusal', async () => {
    const { svc } = installInFreshWorld(
      answering({ ok: false, error: { type: 'url-refused', message: 'Only https links can be opened.' } }),
    );
    const error = await svc.invoke('external-link:open', { url: 'ftp://x' }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: 'BridgeError',
      type: 'url-refused',
      message: 'Only https links can be opened.',
      channel: 'external-link:open',
    });
    expect(Object.prototype.toString.call(error)).toBe('[object Error]');
    expect((error as Error).stack).toContain('BridgeError');
  });

  test.each([
    ['no answer', undefined],
    ['a bare value', 42],
    ['an envelope without ok', { value: 1 }],
    ['a refusal without a type', { ok: false, error: { message: 'x' } }],
  ])('rejects with type internal on %s', async (_case, answer) => {
    const { svc } = installInFreshWorld(answering(answer));
    await expect(svc.invoke('app:info')).rejects.toMatchObject({ name: 'BridgeError', type: 'internal' });
  });

  test('rejects with type internal when main does not answer at all', async () => {
    const { svc } = installInFreshWorld(() =>
      Promise.reject(new Error("No handler registered for 'svc:invoke'")),
    );
    await expect(svc.invoke('app:info')).rejects.toMatchObject({
      type: 'internal',
      message: 'The app did not answer.',
    });
  });
});

describe('svc.on', () => {
  test('delivers events by name until unsubscribed', () => {
    const { svc, deliver } = installInFreshWorld(answering(null));
    const seen: unknown[] = [];
    const unsubscribe = svc.on('settings:changed', (payload) => seen.push(payload));
    deliver('settings:changed', { theme: 'light' });
    deliver('tasks:changed', { ids: [] });
    unsubscribe();
    deliver('settings:changed', { theme: 'dark' });
    expect(seen).toEqual([{ theme: 'light' }]);
  });

  test('keeps delivering to other listeners when one throws, and rethrows its error afterwards', () => {
    const { svc, deliver, microtasks } = installInFreshWorld(answering(null));
    const seen: string[] = [];
    svc.on('settings:changed', () => {
      throw new Error('listener bug');
    });
    svc.on('settings:changed', () => seen.push('second'));
    deliver('settings:changed', { theme: 'light' });
    expect(seen).toEqual(['second']);
    expect(microtasks).toHaveLength(1);
    expect(() => microtasks[0]?.()).toThrow('listener bug');
  });

  test('refuses a listener that is not a function', () => {
    const { svc } = installInFreshWorld(answering(null));
    expect(() => svc.on('settings:changed', 'alert(1)' as unknown as () => void)).toThrow(
      expect.objectContaining({ name: 'TypeError', message: 'svc.on needs a listener function' }),
    );
  });
});

test('window.svc has invoke and on only, and the page cannot replace or extend it', () => {
  const { svc, world } = installInFreshWorld(answering(null));
  expect(Object.keys(svc).sort()).toEqual(['invoke', 'on']);
  expect(Object.isFrozen(svc)).toBe(true);
  expect(runInContext('svc = 1; delete globalThis.svc; typeof svc.invoke', world)).toBe('function');
  expect(Object.getOwnPropertyDescriptor(world, 'svc')).toMatchObject({
    writable: false,
    configurable: false,
  });
});

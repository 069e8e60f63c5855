import Database from 'better-sqlite3';
import { describe, expect, test, vi } from 'vitest';
import { openTestMirror } from '../../db/test-mirror';
import { APP_ENTRY_URL, APP_ORIGIN, trustedPageUrlCheck } from '../security/app-protocol';
import { eventChannels, invokeChannels } from '../../ipc/contract';
import {
  createIpcGate,
  IpcHandlerError,
  IpcWiringError,
  type InvokeEventLike,
  type IpcGateOptions,
  type IpcHandlers,
  type WebContentsLike,
} from './gate';
import { outboxHandlers } from './outbox-handlers';
import type { TaskPage } from '../../ipc/screen-schemas';
import { taskRow } from '../../renderer/src/testing/screen-fixtures';
import { taskHandlers } from './task-handlers';
import { testAccount } from './testing/test-account';
import { EVENT_TRANSPORT_CHANNEL, INVOKE_TRANSPORT_CHANNEL, type IpcResult } from '../../ipc/transport';

/** Stands in for Electron's ipcMain: keeps the listeners the gate installs so a test can call them. */
class RecordingIpcMain {
  readonly listeners = new Map<string, (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>>();
  handle(channel: string, listener: (event: InvokeEventLike, ...args: unknown[]) => Promise<unknown>): void {
    if (this.listeners.has(channel)) throw new Error(`second handler for ${channel}`);
    this.listeners.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.listeners.delete(channel);
  }
  async invoke(event: InvokeEventLike, request: unknown): Promise<IpcResult<unknown>> {
    const listener = this.listeners.get(INVOKE_TRANSPORT_CHANNEL);
    if (!listener) throw new Error('no handler');
    return (await listener(event, request)) as IpcResult<unknown>;
  }
}

/** Stands in for a window's WebContents: records what is sent to it. */
class RecordingWebContents implements WebContentsLike {
  readonly sent: { channel: string; args: unknown[] }[] = [];
  destroyed = false;
  #onDestroyed: (() => void)[] = [];
  constructor(readonly id: number) {}
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  once(_event: 'destroyed', listener: () => void): void {
    this.#onDestroyed.push(listener);
  }
  destroy(): void {
    this.destroyed = true;
    for (const listener of this.#onDestroyed) listener();
  }
}

function setUp(options: Partial<IpcGateOptions> = {}) {
  const ipcMain = new RecordingIpcMain();
  const internalErrors: { channel: string; error: unknown }[] = [];
  const gate = createIpcGate({
    ipcMain,
    isTrustedPageUrl: trustedPageUrlCheck([APP_ORIGIN]),
    onInternalError: (channel, error) => internalErrors.push({ channel, error }),
    ...options,
  });
  const window = new RecordingWebContents(7);
  gate.trust(window);
  const fromOurPage: InvokeEventLike = {
    sender: { id: 7 },
    senderFrame: { url: APP_ENTRY_URL, parent: null },
  };
  const call = (channel: string, input?: unknown, event: InvokeEventLike = fromOurPage) =>
    ipcMain.invoke(event, { channel, input });
  return { ipcMain, gate, window, call, internalErrors, fromOurPage };
}

const appInfo = { name: 'svc-desktop', version: '1.2.3', platform: 'linux' };

describe('the IPC gate', () => {
  test('answers a valid call with the handler value, shaped by the output schema', async () => {
    const { gate, call } = setUp();
    gate.register({ 'app:info': () => ({ ...appInfo, secret: 'not in the contract' }) as typeof appInfo });
    expect(await call('app:info')).toEqual({ ok: true, value: appInfo });
  });

  test('passes the parsed input and the calling window to the handler', async () => {
    const { gate, call } = setUp();
    const seen: unknown[] = [];
    gate.register({
      'settings:set': (input, context) => {
        seen.push(input, context);
        return { theme: input.theme ?? 'system' };
      },
    });
    expect(await call('settings:set', { theme: 'dark' })).toEqual({ ok: true, value: { theme: 'dark' } });
    expect(seen).toEqual([
      { theme: 'dark' },
      { senderId: 7, senderGone: expect.any(AbortSignal) as unknown },
    ]);
  });

  test.each([
    ['a value outside the enum', 'settings:set', { theme: 'purple' }],
    ['a key the channel does not take', 'settings:set', { theme: 'dark', admin: true }],
    ['input where none is taken', 'app:info', { anything: 1 }],
    ['a missing required input', 'external-link:open', undefined],
  ])('refuses %s as invalid-input without calling the handler', async (_case, channel, input) => {
    const { gate, call } = setUp();
    let called = false;
    gate.register({
      'app:info': () => ((called = true), appInfo),
      'settings:set': () => ((called = true), { theme: 'system' }),
      'external-link:open': () => ((called = true), null),
    });
    const answer = await call(channel, input);
    expect(answer.ok).toBe(false);
    expect(!answer.ok && answer.error.type).toBe('invalid-input');
    expect(called).toBe(false);
  });

  test('refuses a channel the contract does not declare', async () => {
    const { ipcMain, call, fromOurPage } = setUp();
    expect(await call('shell:exec', { command: 'rm -rf /' })).toEqual({
      ok: false,
      error: { type: 'unknown-channel', message: 'No such call: shell:exec.' },
    });
    expect((await ipcMain.invoke(fromOurPage, 'app:info')).ok).toBe(false);
    expect((await ipcMain.invoke(fromOurPage, { channel: 'toString' })).ok).toBe(false);
  });

  test('answers unavailable for a declared channel nobody handles yet', async () => {
    const { call } = setUp();
    const answer = await call('settings:get');
    expect(!answer.ok && answer.error.type).toBe('unavailable');
  });

  test('while the app starts, a call nobody handles yet waits for its handler; a registered one is answered at once', async () => {
    let started!: () => void;
    const { gate, call } = setUp({ startup: new Promise<void>((resolve) => (started = resolve)) });
    gate.register({ 'app:opening': () => ({ account_id: 'acc_1', applied: 0, total: 2 }) });
    const waiting = call('settings:get');
    let answered = false;
    void waiting.then(() => (answered = true));
    expect(await call('app:opening')).toEqual({
      ok: true,
      value: { account_id: 'acc_1', applied: 0, total: 2 },
    });
    expect(answered).toBe(false);
    gate.register({ 'settings:get': () => ({ theme: 'dark' }) });
    started();
    expect(await waiting).toMatchObject({ ok: true, value: { theme: 'dark' } });
    // Once started, a channel still unhandled is unavailable as before.
    expect(await call('settings:set', {})).toMatchObject({ ok: false, error: { type: 'unavailable' } });
  });

  test.each<[string, InvokeEventLike]>([
    ['a window we did not create', { sender: { id: 99 }, senderFrame: { url: APP_ENTRY_URL, parent: null } }],
    ['a subframe of our window', { sender: { id: 7 }, senderFrame: { url: APP_ENTRY_URL, parent: {} } }],
    [
      'our window showing a foreign page',
      { sender: { id: 7 }, senderFrame: { url: 'https://evil.test/', parent: null } },
    ],
    [
      'our window showing a file',
      { sender: { id: 7 }, senderFrame: { url: 'file:///etc/passwd', parent: null } },
    ],
    ['a frame that is gone', { sender: { id: 7 }, senderFrame: null }],
  ])('refuses a call from %s as untrusted-sender', async (_case, event) => {
    const { gate, call } = setUp();
    let called = false;
    gate.register({ 'app:info': () => ((called = true), appInfo) });
    const answer = await call('app:info', undefined, event);
    expect(!answer.ok && answer.error.type).toBe('untrusted-sender');
    expect(called).toBe(false);
  });

  test('stops trusting a window once it is destroyed', async () => {
    const { gate, call, window } = setUp();
    gate.register({ 'app:info': () => appInfo });
    window.destroy();
    const answer = await call('app:info');
    expect(!answer.ok && answer.error.type).toBe('untrusted-sender');
  });

  test("tells a call still running that its window closed (its senderGone aborts); another window's call is not told", async () => {
    const { gate, call, window } = setUp();
    const other = new RecordingWebContents(8);
    gate.trust(other);
    const signals: AbortSignal[] = [];
    gate.register({
      'app:info': (_input, { senderGone }) => {
        signals.push(senderGone);
        return appInfo;
      },
    });
    await call('app:info');
    await call('app:info', undefined, {
      sender: { id: 8 },
      senderFrame: { url: APP_ENTRY_URL, parent: null },
    });
    expect(signals.map((signal) => signal.aborted)).toEqual([false, false]);
    window.destroy();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
  });

  test('refuses a second handler for a channel, keeping the first', async () => {
    const { gate, call } = setUp();
    gate.register({ 'app:info': () => appInfo });
    expect(() => gate.register({ 'app:info': () => ({ ...appInfo, version: '9' }) })).toThrow(IpcWiringError);
    expect(await call('app:info')).toEqual({ ok: true, value: appInfo });
  });

  test('refuses a map with a channel not in the contract, registering none of it', async () => {
    const { gate, call } = setUp();
    const map = { 'app:info': () => appInfo, 'app:quit': () => null } as IpcHandlers;
    expect(() => gate.register(map)).toThrow(/app:quit is not a call/);
    const answer = await call('app:info');
    expect(!answer.ok && answer.error.type).toBe('unavailable');
  });

  test('passes a typed handler error through and hides an untyped one', async () => {
    const { gate, call, internalErrors } = setUp();
    const crash = new Error('database is locked at /home/someone/mirror.sqlite');
    gate.register({
      'external-link:open': () => {
        throw new IpcHandlerError('url-refused', 'Only https links can be opened.');
      },
      'settings:get': () => {
        throw crash;
      },
    });
    expect(await call('external-link:open', { url: 'ftp://x' })).toEqual({
      ok: false,
      error: { type: 'url-refused', message: 'Only https links can be opened.' },
    });
    const hidden = await call('settings:get');
    expect(!hidden.ok && hidden.error).toEqual({
      type: 'internal',
      message: 'settings:get failed inside the app.',
    });
    expect(internalErrors).toEqual([{ channel: 'settings:get', error: crash }]);
  });

  test('answers internal when a handler returns what the contract does not allow', async () => {
    const { gate, call, internalErrors } = setUp();
    gate.register({ 'settings:get': () => ({ theme: 'sepia' }) as unknown as { theme: 'dark' } });
    const answer = await call('settings:get');
    expect(!answer.ok && answer.error.type).toBe('internal');
    expect(internalErrors).toHaveLength(1);
  });

  test("passes a page's rows on as the handler built them, checking the page's envelope", async () => {
    const { gate, call, internalErrors } = setUp();
    const row = taskRow({ task_id: 'tsk_1', title: 'Fix login', status: 'open' });
    let answer: unknown = { rows: [row], next: null, skipped: [] };
    gate.register({ 'tasks:query': () => answer as TaskPage });
    const query = { query: { filter: {}, sort_by: 'title', sort_order: 'asc' } };
    const page = await call('tasks:query', query);
    // Not parsed into a copy: the row leaves as built (Electron's structured clone is its one copy).
    expect(page.ok && (page.value as { rows: unknown[] }).rows[0]).toBe(row);

    answer = { rows: 'everything', next: null, skipped: [] };
    expect(await call('tasks:query', query)).toMatchObject({ ok: false, error: { type: 'internal' } });
    answer = { rows: [row], skipped: [] };
    expect(await call('tasks:query', query)).toMatchObject({ ok: false, error: { type: 'internal' } });
    expect(internalErrors).toHaveLength(2);
    // The input is still checked whole.
    const bad = await call('tasks:query', { query: { filter: {}, sort_by: 'title', sort_order: 'up' } });
    expect(!bad.ok && bad.error.type).toBe('invalid-input');
  });

  test('sends a checked event to every live trusted window and to nobody else', () => {
    const { gate, window } = setUp();
    const second = new RecordingWebContents(8);
    const closed = new RecordingWebContents(9);
    gate.trust(second);
    gate.trust(closed);
    closed.destroyed = true;
    gate.emit('settings:changed', { theme: 'light' });
    const message = {
      channel: EVENT_TRANSPORT_CHANNEL,
      args: [{ name: 'settings:changed', payload: { theme: 'light' } }],
    };
    expect(window.sent).toEqual([message]);
    expect(second.sent).toEqual([message]);
    expect(closed.sent).toEqual([]);
  });

  test('refuses to send an undeclared event or a payload outside its schema', () => {
    const { gate, window } = setUp();
    expect(() => gate.emit('app:quit' as 'settings:changed', { theme: 'light' })).toThrow(IpcWiringError);
    expect(() => gate.emit('settings:changed', { theme: 'sepia' as 'light' })).toThrow();
    expect(window.sent).toEqual([]);
  });

  test('stops answering when closed', () => {
    const { gate, ipcMain } = setUp();
    gate.close();
    expect(ipcMain.listeners.size).toBe(0);
  });
});

describe('the IPC contract', () => {
  test('names every call and event resource:verb, each once', () => {
    const names = [...Object.keys(invokeChannels), ...Object.keys(eventChannels)];
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe('what handlers call fails the same through every handler', () => {
  // Both writes wait out writeWhenFree's 20 s for the lock before they give up (on a fake clock).
  test('a mirror locked by another process answers storage-locked from a task call and an outbox call alike', async () => {
    const { gate, call } = setUp();
    const held = await openTestMirror();
    const other = new Database(held.file);
    try {
      const { mirror } = held;
      const { taskId, opId } = mirror.tasks.create({ title: 'Waits for the lock' });
      const active = testAccount(mirror);
      const emit = () => undefined;
      gate.register(taskHandlers({ active: () => active, emit }));
      gate.register(outboxHandlers({ active: () => active, emit }));
      // Another process (a second copy of the app, say) holds the file's write lock.
      other.prepare('BEGIN IMMEDIATE').run();

      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
      const both = Promise.all([
        call('task:edit', { task_id: taskId, patch: { title: 'Mine' } }),
        call('outbox:discard', { op_id: opId }),
      ]);
      await vi.advanceTimersByTimeAsync(25_000);
      const [edit, discard] = await both;

      expect(!edit.ok && edit.error.type).toBe('storage-locked');
      expect(!discard.ok && discard.error.type).toBe('storage-locked');
      expect(!discard.ok && discard.error.message).toBe(!edit.ok && edit.error.message);
    } finally {
      vi.useRealTimers();
      other.close();
      held.cleanup();
    }
  }, 20_000);
});

// A read kept current through the bridge, without React or Electron: the events
// come from a bus the test drives, the answers from promises it settles, and
// time from vitest's fake clock.
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import type { EventName, EventPayload } from '../../../ipc/contract';
import type { MirrorChanged } from '../../../ipc/screen-schemas';
import { startRead } from './bridge-read';
import { followChanges, type Listen, type ReloadOn } from './follow-changes';

type Listener = (payload: never) => void;

/** The bridge's events as the test sends them. */
function eventBus() {
  const listeners = new Map<EventName, Set<Listener>>();
  const listen: Listen = <E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void) => {
    const set = listeners.get(event) ?? new Set<Listener>();
    listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  };
  const send = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    for (const listener of listeners.get(event) ?? []) (listener as (p: EventPayload<E>) => void)(payload);
  };
  const listening = () => [...listeners.values()].reduce((n, set) => n + set.size, 0);
  return { listen, send, listening };
}

function changed(collections: string[], taskIds: string[] | null = null): MirrorChanged {
  return { account_id: 'a1', collections, task_ids: taskIds, remapped: [] };
}

/** Answers the reads one by one, in the order the test settles them. */
function reads<T>() {
  const asked: { again: boolean; resolve: (value: T) => void; reject: (error: unknown) => void }[] = [];
  const read = (again: boolean) =>
    new Promise<T>((resolve, reject) => {
      asked.push({ again, resolve, reject });
    });
  return { read, asked };
}

const SYNC_STATUS = {} as EventPayload<'sync:status-changed'>;

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('the first read is asked at once and its answer passed on', async () => {
  const bus = eventBus();
  const { read, asked } = reads<string>();
  const values: string[] = [];
  startRead({ read, onValue: (v) => values.push(v), onError: () => undefined, listen: bus.listen });
  expect(asked.map((a) => a.again)).toEqual([false]);
  asked[0]?.resolve('first');
  await vi.runAllTimersAsync();
  expect(values).toEqual(['first']);
});

test('an answer or a failure that arrives after the stop is dropped, and the stop stops listening', async () => {
  const bus = eventBus();
  const { read, asked } = reads<string>();
  const seen: string[] = [];
  const stop = startRead({
    read,
    reloadOn: { collections: ['tasks'], syncStatus: true },
    onValue: (v) => seen.push(v),
    onError: () => seen.push('error'),
    listen: bus.listen,
  });
  expect(bus.listening()).toBe(2);
  stop();
  asked[0]?.resolve('late');
  await vi.runAllTimersAsync();
  expect(seen).toEqual([]);
  expect(bus.listening()).toBe(0);
  const failing = reads<string>();
  const stopFailing = startRead({
    read: failing.read,
    onValue: (v) => seen.push(v),
    onError: () => seen.push('error'),
    listen: bus.listen,
  });
  stopFailing();
  failing.asked[0]?.reject(new Error('gone'));
  await vi.runAllTimersAsync();
  expect(seen).toEqual([]);
});

test('a failure is passed on and a later change reads again', async () => {
  const bus = eventBus();
  const { read, asked } = reads<string>();
  const seen: string[] = [];
  startRead({
    read,
    reloadOn: { collections: ['tasks'] },
    onValue: (v) => seen.push(v),
    onError: (error) => seen.push(`error: ${(error as Error).message}`),
    listen: bus.listen,
  });
  asked[0]?.reject(new Error('offline'));
  await vi.runAllTimersAsync();
  bus.send('mirror:changed', changed(['tasks']));
  await vi.runAllTimersAsync();
  expect(asked.map((a) => a.again)).toEqual([false, true]);
  asked[1]?.resolve('second');
  await vi.runAllTimersAsync();
  expect(seen).toEqual(['error: offline', 'second']);
});

test('a burst of changes of the named collections reads again once, after the delay', async () => {
  const bus = eventBus();
  const { read, asked } = reads<string>();
  startRead({
    read,
    reloadOn: { collections: ['milestones', 'tasks'] },
    onValue: () => undefined,
    onError: () => undefined,
    listen: bus.listen,
  });
  bus.send('mirror:changed', changed(['tasks']));
  bus.send('mirror:changed', changed(['milestones']));
  await vi.advanceTimersByTimeAsync(149);
  expect(asked).toHaveLength(1);
  bus.send('mirror:changed', changed(['tasks']));
  await vi.advanceTimersByTimeAsync(1);
  expect(asked.map((a) => a.again)).toEqual([false, true]);
  bus.send('mirror:changed', changed(['tasks']));
  await vi.advanceTimersByTimeAsync(150);
  expect(asked).toHaveLength(3);
});

const cases: {
  name: string;
  on: ReloadOn;
  send: (bus: ReturnType<typeof eventBus>) => void;
  reads: number;
}[] = [
  {
    name: 'a change of another collection does not read again',
    on: { collections: ['tasks'] },
    send: (bus) => bus.send('mirror:changed', changed(['sections'])),
    reads: 1,
  },
  {
    name: 'with no collections named, any change reads again',
    on: {},
    send: (bus) => bus.send('mirror:changed', changed(['sections'])),
    reads: 2,
  },
  {
    name: 'a change the test refuses does not read again',
    on: { collections: ['tasks'], when: (c) => c.task_ids === null || c.task_ids.includes('t1') },
    send: (bus) => bus.send('mirror:changed', changed(['tasks'], ['t2'])),
    reads: 1,
  },
  {
    name: 'a change the test accepts reads again',
    on: { collections: ['tasks'], when: (c) => c.task_ids === null || c.task_ids.includes('t1') },
    send: (bus) => bus.send('mirror:changed', changed(['tasks'], ['t2', 't1'])),
    reads: 2,
  },
  {
    name: 'a sync status event reads again when asked to',
    on: { syncStatus: true },
    send: (bus) => bus.send('sync:status-changed', SYNC_STATUS),
    reads: 2,
  },
  {
    name: 'a sync status event is not listened to otherwise',
    on: { collections: ['tasks'] },
    send: (bus) => bus.send('sync:status-changed', SYNC_STATUS),
    reads: 1,
  },
];

test.each(cases)('$name', async ({ on, send, reads: expected }) => {
  const bus = eventBus();
  const { read, asked } = reads<string>();
  startRead({ read, reloadOn: on, onValue: () => undefined, onError: () => undefined, listen: bus.listen });
  send(bus);
  await vi.runAllTimersAsync();
  expect(asked).toHaveLength(expected);
});

test('with no delay each change reads again at once, before any timer runs', () => {
  const bus = eventBus();
  const { read, asked } = reads<string>();
  startRead({
    read,
    reloadOn: { syncStatus: true, delayMs: 0 },
    onValue: () => undefined,
    onError: () => undefined,
    listen: bus.listen,
  });
  bus.send('mirror:changed', changed(['tasks']));
  bus.send('sync:status-changed', SYNC_STATUS);
  expect(asked.map((a) => a.again)).toEqual([false, true, true]);
});

test('a reload waiting for its delay is dropped by the stop', async () => {
  const bus = eventBus();
  let reloads = 0;
  const stop = followChanges({ collections: ['tasks'] }, () => (reloads += 1), bus.listen);
  bus.send('mirror:changed', changed(['tasks']));
  stop();
  await vi.runAllTimersAsync();
  expect(reloads).toBe(0);
});

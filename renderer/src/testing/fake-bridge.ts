// A stand-in for `window.svc` in component tests: it records every call a
// component makes to main and answers it as the test says, so a test asserts
// what the component asked main to do and what the person then sees. Tests
// only: product code never imports testing/ (the lint's import zones).
import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import type {
  BridgeError,
  EventName,
  EventPayload,
  InvokeArgs,
  InvokeChannel,
  InvokeInput,
  InvokeOutput,
  SvcBridge,
} from '../../../ipc/contract';
import { useDrafts } from '../store/draft-store';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { useWorkspace } from '../store/workspace-store';
import { useList } from '../task-list/list-store';
import { useUndo } from '../store/undo-store';
import { useSelection } from '../store/selection-store';

type Answer<C extends InvokeChannel> = (input: InvokeInput<C>) => InvokeOutput<C> | Promise<InvokeOutput<C>>;

/** What main rejects a call with (`BridgeError`): the UI branches on `type`. */
export function bridgeError(type: string, message: string, channel = 'test'): BridgeError {
  return Object.assign(new Error(message), { name: 'BridgeError' as const, type, channel });
}

export class FakeBridge implements SvcBridge {
  /** Every call in the order made, its input as the component passed it. */
  readonly calls: { channel: InvokeChannel; input: unknown }[] = [];
  private answers = new Map<InvokeChannel, (input: never) => unknown>();
  private listeners = new Map<EventName, Set<(payload: never) => void>>();

  /** How main answers `channel` from now on; a call with no answer fails with type `unanswered`. */
  answer<C extends InvokeChannel>(channel: C, reply: Answer<C>): this {
    this.answers.set(channel, reply);
    return this;
  }

  /** Main refuses `channel` with an error of `type` (e.g. `validation`, the service's refusal of a field). */
  refuse(channel: InvokeChannel, type: string, message: string): this {
    this.answers.set(channel, () => {
      throw bridgeError(type, message, channel);
    });
    return this;
  }

  /** The inputs of the calls made on `channel`, oldest first. */
  callsOf<C extends InvokeChannel>(channel: C): InvokeInput<C>[] {
    return this.calls.filter((call) => call.channel === channel).map((call) => call.input as InvokeInput<C>);
  }

  invoke<C extends InvokeChannel>(channel: C, ...input: InvokeArgs<C>): Promise<InvokeOutput<C>> {
    this.calls.push({ channel, input: input[0] });
    const reply = this.answers.get(channel) as Answer<C> | undefined;
    if (reply === undefined)
      return Promise.reject(bridgeError('unanswered', `the test gave no answer for ${channel}`, channel));
    try {
      return Promise.resolve(reply(input[0] as InvokeInput<C>));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  /** Main sends `event` to the page. */
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const listener of this.listeners.get(event) ?? [])
      (listener as (p: EventPayload<E>) => void)(payload);
  }

  reset(): void {
    this.calls.length = 0;
    this.answers.clear();
    this.listeners.clear();
  }
}

const stores = [useSession, useView, useWorkspace, useList, useDrafts, useSelection, useUndo] as const;

/**
 * One fake bridge on `window.svc` for a test file, emptied before each test;
 * the page's stores start fresh and what a test rendered is unmounted after it.
 */
export function fakeBridgeEachTest(): FakeBridge {
  const bridge = new FakeBridge();
  const initial = stores.map((store) => store.getInitialState());
  beforeEach(() => {
    bridge.reset();
    Object.defineProperty(window, 'svc', { value: bridge, configurable: true });
    stores.forEach((store, index) =>
      (store.setState as (state: unknown, replace: true) => void)(initial[index], true),
    );
  });
  afterEach(cleanup);
  return bridge;
}

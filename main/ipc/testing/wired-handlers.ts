// Handler tests over a pushed mirror: a push bench (emulator, real mirror,
// real pusher) per test, the real gate, and the handlers under test registered
// on it with the bench's mirror as the active account; what they emit and how
// often they report an edit are recorded for the test to read.
import { type PushFixture, pushFixturePerTest } from '../../../sync/push/testing/push-fixture';
import type { EventName, InvokeChannel, InvokeOutput } from '../../../ipc/contract';
import type { IpcGate, IpcHandlers } from '../gate';
import type { ActiveMirror } from '../task-handlers';
import type { IpcResult } from '../../../ipc/transport';
import { gateHarness } from './gate-harness';

export interface Wired {
  f: PushFixture;
  events: { name: EventName; payload: unknown }[];
  edits: number;
  call<C extends InvokeChannel>(channel: C, input?: unknown): Promise<IpcResult<InvokeOutput<C>>>;
  value<C extends InvokeChannel>(channel: C, input?: unknown): Promise<InvokeOutput<C>>;
}

export interface WireOptions {
  /** The account is read-only: from the start, or whenever the function says so (a test that turns it). */
  readOnly?: boolean | (() => boolean);
  /** Kinds the sign-in may not write, with the scope each lacks. */
  readOnlyKinds?: ReadonlyMap<string, string>;
}

export interface WiredDependencies {
  active: () => ActiveMirror;
  emit: IpcGate['emit'];
}

/**
 * For a file of handler tests: returns the `wire` to call in a test, which
 * starts a bench and registers `handlers` over it; the bench closes after each test.
 */
export function wiredHandlersPerTest(
  handlers: (dependencies: WiredDependencies) => IpcHandlers,
): (options?: WireOptions) => Promise<Wired> {
  const start = pushFixturePerTest();
  return async (options = {}) => {
    const f = await start();
    const { gate, call, value } = gateHarness();
    const wired: Wired = { f, events: [], edits: 0, call, value };
    const readOnly = options.readOnly ?? false;
    const active: ActiveMirror = {
      accountId: 'acct-1',
      mirror: f.mirror,
      me: f.emulator.me,
      get readOnly() {
        return typeof readOnly === 'function' ? readOnly() : readOnly;
      },
      ...(options.readOnlyKinds ? { readOnlyKinds: options.readOnlyKinds } : {}),
      edited: () => {
        wired.edits += 1;
      },
      refreshActivity: () => undefined,
    };
    gate.register(
      handlers({ active: () => active, emit: (name, payload) => wired.events.push({ name, payload }) }),
    );
    return wired;
  };
}

// @vitest-environment happy-dom
// Drafts are written after a pause in typing, once for a burst of keystrokes
// (never a write per key), and a draft still waiting is written before the
// account switches (so it lands in the mirror of the account it was typed in)
// and as the page goes.
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account } from '../testing/screen-fixtures';
import { DRAFT_SAVE_DELAY_MS, keepDraft } from './draft-store';
import { startSession, switchAccount } from './session-store';

const bridge = fakeBridgeEachTest();

beforeEach(() => {
  bridge.answer('drafts:save', () => null);
  bridge.answer('drafts:list', () => []);
});
afterEach(() => {
  vi.useRealTimers();
});

const key = { kind: 'comment', task_id: 't-1' } as const;

describe('draft writes', () => {
  test('a burst of typing is written once, after the pause, with the last text', async () => {
    vi.useFakeTimers();
    for (const text of ['H', 'Ha', 'Hal', 'Half']) {
      keepDraft(key, { ...key, text });
      await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS / 5);
    }
    expect(bridge.callsOf('drafts:save')).toEqual([]);
    await vi.advanceTimersByTimeAsync(DRAFT_SAVE_DELAY_MS);
    expect(bridge.callsOf('drafts:save')).toEqual([{ ...key, text: 'Half' }]);
  });

  test('a draft still waiting is written before the account switches', async () => {
    bridge.answer('accounts:switch', ({ account_id }) => account({ account_id }));
    bridge.answer('accounts:list', () => ({
      accounts: [account({ account_id: 'acct-2' })],
      current: 'acct-2',
    }));
    bridge.answer('sync:status', () => {
      throw new Error('not needed here');
    });
    keepDraft(key, { ...key, text: 'Typed in the first account' });
    await switchAccount('acct-2');
    const order = bridge.calls.map((call) => call.channel);
    expect(order.indexOf('drafts:save')).toBeGreaterThanOrEqual(0);
    expect(order.indexOf('drafts:save')).toBeLessThan(order.indexOf('accounts:switch'));
  });

  test('a draft still waiting is written as the page goes (the app quitting)', () => {
    const stop = startSession();
    try {
      keepDraft(key, { ...key, text: 'Typed just before quitting' });
      window.dispatchEvent(new Event('pagehide'));
      expect(bridge.callsOf('drafts:save')).toEqual([{ ...key, text: 'Typed just before quitting' }]);
    } finally {
      stop();
    }
  });
});

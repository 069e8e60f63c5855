// @vitest-environment happy-dom
// Setting a record's status as its screen does: the edit queued through main
// and announced, or the refusal shown as the app's notice with what failed.
import { describe, expect, test } from 'vitest';
import { useSession } from '../store/session-store';
import { useView } from '../store/view-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { queueStatus } from './queue-status';

const bridge = fakeBridgeEachTest();
const words = { done: 'Closed ‘Launch’', doing: 'Closing the goal' };

describe('queueStatus', () => {
  test('queues the status alone and announces it once queued', async () => {
    bridge.answer('collection:edit', () => ({ id: 'g-1', op_id: 'op-1' }));
    await queueStatus('goal', 'g-1', 'closed', words);
    expect(bridge.callsOf('collection:edit')).toEqual([
      { kind: 'goal', id: 'g-1', patch: { status: 'closed' } },
    ]);
    expect(useView.getState().announcement).toBe('Closed ‘Launch’');
    expect(useSession.getState().notice).toBeNull();
  });

  test('a refusal is the notice, saying what failed, and nothing is announced', async () => {
    bridge.refuse('collection:edit', 'storage', 'disk full');
    const before = useView.getState().announcement;
    await queueStatus('goal', 'g-1', 'closed', words);
    expect(useSession.getState().notice).toMatchObject({ type: 'storage', context: 'Closing the goal' });
    expect(useView.getState().announcement).toBe(before);
  });
});

// Setting a goal's, milestone's or sprint's status from its screen: queued
// through main (sent when the server can be reached), said to screen readers
// once queued, a refusal shown as the app's problem notice.
import type { InvokeInput } from '../../../ipc/contract';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';

export async function queueStatus(
  kind: InvokeInput<'collection:edit'>['kind'],
  id: string,
  status: string,
  words: {
    /** Announced once queued ("Closed ‘Launch’"). */
    done: string;
    /** What failed, for the problem notice ("Closing the goal"). */
    doing: string;
  },
): Promise<void> {
  try {
    await invoke('collection:edit', { kind, id, patch: { status } });
    announce(words.done);
  } catch (error) {
    showProblem(error, words.doing);
  }
}

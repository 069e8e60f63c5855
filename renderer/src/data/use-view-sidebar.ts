// The saved views the person can open and their pins in pin order
// (`views:sidebar`, waiting changes applied), reloaded when either changes.
import type { ViewSidebar } from '../../../ipc/view-schemas';
import { errorType } from '../bridge/svc';
import { useBridgeRead } from './use-bridge-read';
import { showProblem } from '../store/session-store';

export function useViewSidebar(): ViewSidebar | null {
  return useBridgeRead('views:sidebar', undefined, {
    reloadOn: { collections: ['views', 'view_pins'] },
    // The sidebar and the list's Save view button both read it as the first screen opens.
    sameTask: true,
    onError: (error) => {
      if (errorType(error) !== 'signed-out') showProblem(error, 'Loading saved views');
    },
  }).data;
}

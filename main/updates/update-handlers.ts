// updates:status and updates:restart: the status bar's update line and its
// "Restart to update" button. Without an updater (tests, the browser host,
// an unpackaged run) there is never anything to tell.
import { type UpdateStatus, updateStatusView } from '../../services/updates/update-policy';
import type { IpcHandlers } from '../ipc/gate';

export interface UpdateControls {
  status(): UpdateStatus;
  restartToUpdate(): UpdateStatus;
}

export function updateHandlers(updates: UpdateControls | null): IpcHandlers {
  const idle = () => updateStatusView({ kind: 'idle' });
  return {
    'updates:status': () => updates?.status() ?? idle(),
    'updates:restart': () => updates?.restartToUpdate() ?? idle(),
  };
}

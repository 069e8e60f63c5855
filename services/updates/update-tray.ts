// The update's line in the tray menu, above the accounts: "Restart to update
// to 0.3.0" as an action once downloaded, else what the status bar says
// (downloading, waiting for edits, failed) as a line that does nothing.
import type { TrayModel } from '../notify/tray-model';
import type { UpdateStatus } from './update-policy';

export function withUpdateLine(model: TrayModel, status: UpdateStatus | null): TrayModel {
  if (status === null || status.message === null) return model;
  return {
    ...model,
    tooltip: status.can_restart ? `${model.tooltip} — ${status.message}`.slice(0, 127) : model.tooltip,
    menu: [
      {
        kind: 'action',
        label: status.message,
        action: { type: 'restart-to-update' },
        enabled: status.can_restart,
      },
      { kind: 'separator' },
      ...model.menu,
    ],
  };
}

// What the sync screen shows and does: every account's state (reloaded when a
// status event arrives), pause and resume, and notification settings.
import { create } from 'zustand';
import type { InvokeInput, InvokeOutput } from '../../../ipc/contract';
import type { SyncAccountsView } from '../../../ipc/visibility-schemas';
import { invoke } from '../bridge/svc';
import { followChanges } from '../data/follow-changes';
import { showProblem } from '../store/session-store';

export type NotificationSettings = InvokeOutput<'notification-settings:get'>;
type SettingsPatch = InvokeInput<'notification-settings:set'>;

interface SyncCenterState {
  overview: SyncAccountsView | null;
  settings: NotificationSettings | null;
}

export const useSyncCenter = create<SyncCenterState>(() => ({ overview: null, settings: null }));

export async function loadOverview(): Promise<void> {
  try {
    useSyncCenter.setState({ overview: await invoke('sync:accounts') });
  } catch (error) {
    showProblem(error, 'Reading the sync state');
  }
}

/** Keeps the overview current while the screen is open; returns the function that stops. */
export function followOverview(): () => void {
  void loadOverview();
  return followChanges({ syncStatus: true, delayMs: 200 }, () => void loadOverview());
}

export async function setPaused(paused: boolean): Promise<void> {
  try {
    await invoke(paused ? 'sync:pause' : 'sync:resume');
  } catch (error) {
    showProblem(error, paused ? 'Pausing sync' : 'Resuming sync');
  }
  await loadOverview();
}

export async function loadNotificationSettings(): Promise<void> {
  try {
    useSyncCenter.setState({ settings: await invoke('notification-settings:get') });
  } catch (error) {
    showProblem(error, 'Reading notification settings');
  }
}

export async function changeNotificationSettings(patch: SettingsPatch): Promise<void> {
  // Shown at once (a checkbox follows the click); main's answer then replaces it.
  const shown = useSyncCenter.getState().settings;
  if (shown !== null) {
    const kinds = { ...shown.kinds };
    for (const [kind, on] of Object.entries(patch.kinds ?? {})) {
      if (on !== undefined) kinds[kind as keyof typeof kinds] = on;
    }
    const quiet = patch.quiet_hours ?? {};
    useSyncCenter.setState({
      settings: {
        enabled: patch.enabled ?? shown.enabled,
        kinds,
        quiet_hours: {
          enabled: quiet.enabled ?? shown.quiet_hours.enabled,
          start: quiet.start ?? shown.quiet_hours.start,
          end: quiet.end ?? shown.quiet_hours.end,
        },
        keep_running_in_tray: patch.keep_running_in_tray ?? shown.keep_running_in_tray,
      },
    });
  }
  try {
    useSyncCenter.setState({ settings: await invoke('notification-settings:set', patch) });
  } catch (error) {
    showProblem(error, 'Saving notification settings');
    await loadNotificationSettings();
  }
}

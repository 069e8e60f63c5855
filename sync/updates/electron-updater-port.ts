// Connects electron-updater's updater (autoUpdater in the app; the same classes
// run in Node tests) to the update controller: its check result, progress,
// downloaded and error events become the controller's phases.
import type { AppUpdater } from 'electron-updater';
import { UpdateController, type UpdateControllerOptions } from './update-controller';
import { parseUpdateFeedUrl, UpdateFeedUrlError } from './update-feed-url';

export interface FollowUpdaterOptions extends Omit<UpdateControllerOptions, 'updater'> {
  /** The update_feed_url setting, unchecked; null: the feed packaged with the app (app-update.yml). */
  readonly feedUrl: string | null;
  /**
   * Installs the downloaded update and restarts: in the app, closes the
   * accounts (their mirrors keep what is queued) and calls quitAndInstall.
   */
  readonly install: () => Promise<void>;
}

/**
 * Takes the updater over: downloads in the background, installs on quit,
 * and reports to the returned controller (not started: call `start`).
 */
export function followElectronUpdater(updater: AppUpdater, options: FollowUpdaterOptions): UpdateController {
  updater.autoDownload = true;
  updater.autoInstallOnAppQuit = true;
  // A feed that goes back a version (a release pulled) is not installed over a newer app.
  updater.allowDowngrade = false;
  let offered: string | null = null;
  let refused: string | null = null;
  if (options.feedUrl !== null) {
    try {
      updater.setFeedURL({ provider: 'generic', url: parseUpdateFeedUrl(options.feedUrl).href });
    } catch (error) {
      if (!(error instanceof UpdateFeedUrlError)) throw error;
      refused = error.reason;
    }
  }

  const controller = new UpdateController({
    ...options,
    updater: {
      async check() {
        const result = await updater.checkForUpdates();
        // null: the updater is inactive (an unpackaged run) and asks nothing.
        if (result === null || !result.isUpdateAvailable) return null;
        offered = result.updateInfo.version;
        // Its failure also arrives as an 'error' event, which reports it; this only keeps it from going unhandled.
        result.downloadPromise?.catch(() => undefined);
        return { version: result.updateInfo.version };
      },
      install: options.install,
    },
  });

  updater.on('update-available', (info) => {
    offered = info.version;
  });
  updater.on('download-progress', (progress) => {
    if (offered !== null) controller.downloadProgress(offered, progress.percent);
  });
  updater.on('update-downloaded', (event) => controller.downloaded(event.version));
  updater.on('error', (error) => controller.failed(error));
  // Not the packaged feed instead: the person (or their admin) chose another one.
  if (refused !== null) controller.turnOff(refused);
  return controller;
}

// Connects electron-updater's updater (autoUpdater in the app; the same classes
// run in Node tests) to the update controller: its check result, progress,
// downloaded and error events become the controller's phases. The feed it
// follows, packaged or set, is read only as signed (signed-feed-provider.ts).
import type { KeyObject } from 'node:crypto';
import type { AppUpdater } from 'electron-updater';
import { signedFeedConfiguration } from './signed-feed-provider';
import { UpdateController, type UpdateControllerOptions } from './update-controller';
import { parseUpdateFeedUrl, UpdateFeedUrlError } from './update-feed-url';
import { updateVerifyingKey } from './update-signature';

export interface FollowUpdaterOptions extends Omit<UpdateControllerOptions, 'updater'> {
  /** The update_feed_url setting, unchecked; null: the feed packaged with the app (app-update.yml). */
  readonly feedUrl: string | null;
  /**
   * Installs the downloaded update and restarts: in the app, closes the
   * accounts (their mirrors keep what is queued) and calls quitAndInstall.
   */
  readonly install: () => Promise<void>;
  /** The key the feed's channel files must be signed with; default: the one built into the app (update-signing-key.ts). */
  readonly verifyingKey?: KeyObject;
}

/** What electron-updater read from app-update.yml, the feed electron-builder.yml's `publish` put in the app. */
interface PackagedConfig {
  readonly configOnDisk?: {
    readonly value: Promise<{ provider?: unknown; url?: unknown; channel?: unknown }>;
  };
}

/**
 * Puts the packaged feed back as signed. electron-updater would build its own
 * generic provider from app-update.yml; configOnDisk (internal, but left
 * public "for anyone to read", and what its Windows updater reads publisherName
 * from) gives the same file.
 */
async function followPackagedFeedSigned(updater: AppUpdater, key: KeyObject): Promise<void> {
  const packaged = (updater as unknown as PackagedConfig).configOnDisk;
  if (packaged === undefined) throw new Error('electron-updater no longer shows its app-update.yml');
  const config = await packaged.value;
  if (config.provider !== 'generic' || typeof config.url !== 'string') {
    // Only a generic feed's channel files are checked here: no other kind is followed unsigned.
    throw new Error(`the packaged update feed is not a generic feed (${String(config.provider)})`);
  }
  updater.setFeedURL(
    signedFeedConfiguration(
      { url: config.url, channel: typeof config.channel === 'string' ? config.channel : null },
      key,
    ),
  );
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
  const key = options.verifyingKey ?? updateVerifyingKey();
  let offered: string | null = null;
  let refused: string | null = null;
  // Settled once the packaged feed is followed as signed; null: not yet, or the setting replaces it.
  let packagedFeed: Promise<void> | null = null;
  if (options.feedUrl !== null) {
    try {
      updater.setFeedURL(signedFeedConfiguration({ url: parseUpdateFeedUrl(options.feedUrl).href }, key));
    } catch (error) {
      if (!(error instanceof UpdateFeedUrlError)) throw error;
      refused = error.reason;
    }
  }

  const controller = new UpdateController({
    ...options,
    updater: {
      async check() {
        // An unpackaged run has no app-update.yml, and asks nothing anyway.
        if (!updater.isUpdaterActive()) return null;
        if (options.feedUrl === null) {
          packagedFeed ??= followPackagedFeedSigned(updater, key).catch((error: unknown) => {
            packagedFeed = null;
            throw error;
          });
          await packagedFeed;
        }
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

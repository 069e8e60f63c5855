// The Electron side of updates: electron-updater's autoUpdater on the generic
// feed electron-builder.yml publishes to (or the update_feed_url setting),
// followed by the update controller (services/updates/), which decides when to
// check, what to say and when to install. Only what needs Electron is here.
import { net } from 'electron';
import electronUpdater from 'electron-updater';
import { followElectronUpdater } from '../../services/updates/electron-updater-port';
import type { UpdateController } from '../../services/updates/update-controller';
import type { UpdateWiring } from '../desktop-services';

export interface AppUpdatesOptions {
  /** Closes the accounts (their mirrors keep what is queued) before the installer runs. */
  readonly beforeInstall: () => Promise<void>;
  /** Where the updater's warnings and errors go (main's stderr). */
  readonly log: (line: string) => void;
}

export function appUpdates(options: AppUpdatesOptions): (wiring: UpdateWiring) => UpdateController {
  return (wiring) => {
    // electron-updater is CommonJS; its autoUpdater is a getter that builds this platform's updater.
    const { autoUpdater } = electronUpdater;
    const text = (message: unknown) => (message instanceof Error ? message.message : String(message));
    autoUpdater.logger = {
      info: () => undefined,
      warn: (message) => options.log(`updater: ${text(message)}`),
      error: (message) => options.log(`updater: ${text(message)}`),
    };
    return followElectronUpdater(autoUpdater, {
      ...wiring,
      // Electron tells whether the machine is online, not whether the connection is metered:
      // no platform API for that reaches main, so only absence holds checks back here.
      network: () => ({ online: net.isOnline(), metered: false }),
      install: async () => {
        await options.beforeInstall();
        // Not silent: the installer shows its progress; the app starts again after it.
        autoUpdater.quitAndInstall(false, true);
      },
    });
  };
}

// The notification settings (kinds, quiet hours, keep running in the tray) in
// a small JSON file in userData; unreadable parts fall back to defaults and
// writes replace the file atomically.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  applySettingsPatch,
  type NotificationSettings,
  type NotificationSettingsPatch,
  readNotificationSettings,
} from '../../sync/notify/notification-settings';

export class NotificationSettingsStore {
  #current: NotificationSettings;

  constructor(readonly filePath: string) {
    let stored: unknown;
    try {
      stored = JSON.parse(readFileSync(filePath, 'utf8'));
    } catch {
      stored = undefined;
    }
    this.#current = readNotificationSettings(stored);
  }

  get(): NotificationSettings {
    return this.#current;
  }

  /** Applies a change, writes it through and answers the whole; a bad value throws and nothing changes. */
  update(patch: NotificationSettingsPatch): NotificationSettings {
    const next = applySettingsPatch(this.#current, patch);
    mkdirSync(dirname(this.filePath), { recursive: true });
    const temporary = `${this.filePath}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(next, null, 2)}\n`);
    renameSync(temporary, this.filePath);
    this.#current = next;
    return next;
  }
}

// The notification settings (kinds, quiet hours, keep running in the tray) in
// a small JSON file in userData; unreadable parts fall back to defaults and
// writes replace the file atomically.
import { z } from 'zod';
import { readJsonFileSync, writeJsonFileSync } from '../../db/files/json-file';
import {
  applySettingsPatch,
  type NotificationSettings,
  type NotificationSettingsPatch,
  readNotificationSettings,
} from '../../services/notify/notification-settings';

export class NotificationSettingsStore {
  #current: NotificationSettings;

  constructor(readonly filePath: string) {
    // Read leniently, part by part (readNotificationSettings): the file only has to be JSON.
    const stored = readJsonFileSync(filePath, z.unknown());
    this.#current = readNotificationSettings(stored.state === 'read' ? stored.value : undefined);
  }

  get(): NotificationSettings {
    return this.#current;
  }

  /** Applies a change, writes it through and answers the whole; a bad value throws and nothing changes. */
  update(patch: NotificationSettingsPatch): NotificationSettings {
    const next = applySettingsPatch(this.#current, patch);
    writeJsonFileSync(this.filePath, next);
    this.#current = next;
    return next;
  }
}

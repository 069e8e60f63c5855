// The app's own preferences (theme, last window bounds) in a small JSON file
// in userData. A missing, unreadable or half-written file gives defaults for
// what cannot be read, never a failed start; writes replace the file atomically.
import { z } from 'zod';
import { readJsonFileSync, writeJsonFileSync } from '../../db/files/json-file';
import { themePreferenceSchema } from '../../ipc/contract';

const rectangleSchema = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number().positive(),
  height: z.number().positive(),
});

export const settingsSchema = z.object({
  theme: themePreferenceSchema.catch('system'),
  window: z
    .object({
      bounds: rectangleSchema.optional().catch(undefined),
      maximized: z.boolean().catch(false),
    })
    .catch({ maximized: false }),
  /**
   * Where updates come from, instead of electron-builder.yml's `publish` (a
   * company mirror, a test feed). Checked at start (services/updates/update-feed-url.ts):
   * a refused address turns updates off and the status bar says why.
   */
  update_feed_url: z.string().max(2048).optional().catch(undefined),
  /** How much attachments' content the app keeps for offline opening (bytes); absent: 1 GB. */
  attachment_cache_bytes: z.number().int().min(0).optional().catch(undefined),
});
export type Settings = z.infer<typeof settingsSchema>;

export const DEFAULT_SETTINGS: Settings = { theme: 'system', window: { maximized: false } };

export function readSettingsFile(filePath: string): Settings {
  const read = readJsonFileSync(filePath, settingsSchema);
  return read.state === 'read' ? read.value : DEFAULT_SETTINGS;
}

export function writeSettingsFile(filePath: string, settings: Settings): void {
  writeJsonFileSync(filePath, settingsSchema.parse(settings));
}

/** The settings of this run: read once, written through on every change. */
export class SettingsStore {
  #current: Settings;

  constructor(readonly filePath: string) {
    this.#current = readSettingsFile(filePath);
  }

  get(): Settings {
    return this.#current;
  }

  update(change: (current: Settings) => Settings): Settings {
    const next = settingsSchema.parse(change(this.#current));
    writeSettingsFile(this.filePath, next);
    this.#current = next;
    return next;
  }
}

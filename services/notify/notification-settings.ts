// What the person chose about desktop notifications: on or off, which kinds,
// and quiet hours (a local-time window that may wrap past midnight).
import { z } from 'zod';

/** What a desktop notification can be about. */
export const NOTIFY_KINDS = [
  'task-assigned',
  'task-status-changed',
  'task-commented',
  'task-mentioned',
  'task-conflict',
] as const;
export type NotifyKind = (typeof NOTIFY_KINDS)[number];

const clockTimeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time of day as HH:MM');

export const quietHoursSchema = z.strictObject({
  enabled: z.boolean(),
  /** Local time the quiet starts, HH:MM. */
  start: clockTimeSchema,
  /** Local time the quiet ends (exclusive), HH:MM; earlier than `start` wraps past midnight. */
  end: clockTimeSchema,
});
export type QuietHours = z.infer<typeof quietHoursSchema>;

export const notificationSettingsSchema = z.strictObject({
  /** Master switch: off shows nothing (the tray still marks unseen changes). */
  enabled: z.boolean(),
  kinds: z.strictObject({
    'task-assigned': z.boolean(),
    'task-status-changed': z.boolean(),
    'task-commented': z.boolean(),
    'task-mentioned': z.boolean(),
    'task-conflict': z.boolean(),
  }),
  quiet_hours: quietHoursSchema,
  /** Closing the window keeps the app (and sync) running in the tray. */
  keep_running_in_tray: z.boolean(),
});
export type NotificationSettings = z.infer<typeof notificationSettingsSchema>;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  enabled: true,
  kinds: {
    'task-assigned': true,
    'task-status-changed': true,
    'task-commented': true,
    'task-mentioned': true,
    'task-conflict': true,
  },
  quiet_hours: { enabled: false, start: '22:00', end: '08:00' },
  keep_running_in_tray: true,
};

/** A partial change, as the settings screen sends it (kinds and quiet hours merge field by field). */
export const notificationSettingsPatchSchema = z.strictObject({
  enabled: z.boolean().optional(),
  kinds: notificationSettingsSchema.shape.kinds.partial().optional(),
  quiet_hours: quietHoursSchema.partial().optional(),
  keep_running_in_tray: z.boolean().optional(),
});
export type NotificationSettingsPatch = z.infer<typeof notificationSettingsPatchSchema>;

export function applySettingsPatch(
  settings: NotificationSettings,
  patch: NotificationSettingsPatch,
): NotificationSettings {
  return notificationSettingsSchema.parse({
    enabled: patch.enabled ?? settings.enabled,
    kinds: { ...settings.kinds, ...patch.kinds },
    quiet_hours: { ...settings.quiet_hours, ...patch.quiet_hours },
    keep_running_in_tray: patch.keep_running_in_tray ?? settings.keep_running_in_tray,
  });
}

/** Reads stored settings leniently: anything unreadable falls back to its default, field by field. */
export function readNotificationSettings(stored: unknown): NotificationSettings {
  const whole = notificationSettingsSchema.safeParse(stored);
  if (whole.success) return whole.data;
  const patch = notificationSettingsPatchSchema.safeParse(stored);
  if (patch.success) {
    try {
      return applySettingsPatch(DEFAULT_NOTIFICATION_SETTINGS, patch.data);
    } catch {
      return DEFAULT_NOTIFICATION_SETTINGS;
    }
  }
  return DEFAULT_NOTIFICATION_SETTINGS;
}

const minutesOf = (time: string): number => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * Whether `nowMs` falls in the quiet window, in the person's local time
 * (`utcOffsetMinutes` east of UTC, e.g. 120 for UTC+2; injected so tests and
 * time-zone changes do not depend on the machine). Start inclusive, end
 * exclusive; equal start and end is an empty window.
 */
export function inQuietHours(quiet: QuietHours, nowMs: number, utcOffsetMinutes: number): boolean {
  if (!quiet.enabled) return false;
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  if (start === end) return false;
  const local = new Date(nowMs + utcOffsetMinutes * 60_000);
  const minute = local.getUTCHours() * 60 + local.getUTCMinutes();
  return start < end ? minute >= start && minute < end : minute >= start || minute < end;
}

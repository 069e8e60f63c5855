// IPC shapes for what makes sync visible: the sync log (query, copy
// diagnostics), notification settings, and a clicked notification opening a task.
import { z } from 'zod';
import { SYNC_LOG_KINDS, SYNC_LOG_LEVELS } from '../sync/sync-log/sync-log-vocabulary';
import { localIdSchema } from './id-schemas';
import { connectionFields } from './screen-schemas';

export {
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
} from '../services/notify/notification-settings';

export const syncLogQuerySchema = z.strictObject({
  /** Null or absent: the current account. */
  account_id: localIdSchema.nullable().optional(),
  text: z.string().max(500).optional(),
  levels: z.array(z.enum(SYNC_LOG_LEVELS)).max(SYNC_LOG_LEVELS.length).optional(),
  kinds: z.array(z.enum(SYNC_LOG_KINDS)).max(SYNC_LOG_KINDS.length).optional(),
  before_id: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(1000).optional(),
});
export type SyncLogQueryRequest = z.infer<typeof syncLogQuerySchema>;

export const syncLogEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  level: z.enum(SYNC_LOG_LEVELS),
  kind: z.enum(SYNC_LOG_KINDS),
  message: z.string(),
  method: z.string().nullable(),
  path: z.string().nullable(),
  status: z.number().int().nullable(),
  duration_ms: z.number().nullable(),
  request_id: z.string().nullable(),
  operation: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});
export type SyncLogEntryView = z.infer<typeof syncLogEntrySchema>;

export const syncLogPageSchema = z.object({
  account_id: z.string().nullable(),
  entries: z.array(syncLogEntrySchema),
  /** Pass as `before_id` for older entries; null at the end. */
  next_before_id: z.number().int().nullable(),
});
export type SyncLogPageView = z.infer<typeof syncLogPageSchema>;

export const diagnosticsSchema = z.object({
  /** The redacted report (tokens redacted, people pseudonymised, task content removed). */
  text: z.string(),
  /** Main wrote it to the clipboard (the page has no clipboard permission). */
  copied: z.boolean(),
});

/** A notification was clicked: the window shows this account and task (null: the account's task list). */
export const notificationOpenSchema = z.object({
  account_id: z.string(),
  task_id: z.string().nullable(),
  /** A conflict on a resource that is not a task (a section): its conflict view opens instead of a task. */
  conflict: z.object({ entity_type: z.string(), entity_id: z.string() }).optional(),
});

/** Whether syncing is paused (for every account: polling and pushes stop until resumed; not kept across restarts). */
export const syncPausedSchema = z.object({ paused: z.boolean() });

/** When the app last asked the server about a collection, and when a remote change in it last arrived (ISO 8601). */
export const collectionFreshnessSchema = z.object({
  collection: z.string(),
  checked_at: z.string().nullable(),
  changed_at: z.string().nullable(),
});

/** One account as the account panel shows it. */
export const syncAccountSchema = z.object({
  account_id: z.string(),
  /** "mara · Acme". */
  label: z.string(),
  current: z.boolean(),
  state: z.enum(['signed-in', 'read-only', 'signed-out']),
  ...connectionFields,
  /** When the sign-in lapses and must be done again (its server gave no refresh token); null when it renews itself. */
  session_ends_at: z.string().nullable(),
  pending: z.number().int(),
  conflicts: z.number().int(),
  /** Refused by the server. */
  failed: z.number().int(),
  /** Not sent: the account may not make them (read-only). */
  blocked: z.number().int(),
  /** Changes on the person's tasks not looked at yet. */
  unseen: z.number().int(),
  collections: z.array(collectionFreshnessSchema),
});
export type SyncAccountView = z.infer<typeof syncAccountSchema>;

export const syncAccountsSchema = z.object({
  paused: z.boolean(),
  accounts: z.array(syncAccountSchema),
});
export type SyncAccountsView = z.infer<typeof syncAccountsSchema>;

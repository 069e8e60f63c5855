// The inbox calls' shapes: what happened to the person's work (assigned to
// them, mentions, comments and status changes on their tasks), read from the
// account's change feed (db/passes/change-feed.ts), unread until marked read.
import { z } from 'zod';

export const inboxEntrySchema = z.strictObject({
  id: z.number().int(),
  /** 'task-assigned', 'task-status-changed', 'task-commented', 'task-mentioned' (others may come). */
  kind: z.string(),
  /** What it opens: 'task', or another kind of record ('section', 'sprint', 'goal', 'milestone', 'view'). */
  entity_type: z.string(),
  /** The id of the task or record it opens. */
  entity_id: z.string(),
  /** The task's title or the record's name. */
  title: z.string(),
  /** Who made the change, when the service said. */
  by: z.string().nullable(),
  /**
   * `task-status-changed`: from, to; `task-commented`: count; `task-mentioned`: excerpt;
   * `<kind>-conflict`: conflict, fields; `<kind>-refused`: message; a section's
   * `scope_type` and `scope_id`, a milestone's `project_id` (where it shows).
   */
  detail: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  read: z.boolean(),
});
export type InboxEntry = z.infer<typeof inboxEntrySchema>;

export const inboxSchema = z.strictObject({
  /** Newest first, at most the last INBOX_LIMIT. */
  entries: z.array(inboxEntrySchema),
  /** Unread entries in all (the sidebar's and the tray's count). */
  unread: z.number().int().nonnegative(),
});
export type Inbox = z.infer<typeof inboxSchema>;

export const inboxMarkReadInputSchema = z.strictObject({
  /** These entries; left out, every entry. */
  ids: z.array(z.number().int()).max(10_000).optional(),
});

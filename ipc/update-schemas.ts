// What the status bar and the tray are told about updates (services/updates/update-policy.ts's
// UpdateStatus), as the IPC contract carries it.
import { z } from 'zod';

export const updateStatusSchema = z.object({
  state: z.enum(['idle', 'checking', 'downloading', 'ready', 'waiting', 'failed']),
  version: z.string().max(100).nullable(),
  percent: z.number().min(0).max(100).nullable(),
  /** The line to show; null when there is nothing to tell. */
  message: z.string().max(1000).nullable(),
  reason: z
    .enum(['unreachable', 'malformed-feed', 'unsigned-feed', 'checksum-mismatch', 'feed-refused', 'failed'])
    .nullable(),
  /** ISO 8601: when a failed check is tried again. */
  retry_at: z.string().nullable(),
  /** Whether "Restart to update" is offered. */
  can_restart: z.boolean(),
});
export type UpdateStatusView = z.infer<typeof updateStatusSchema>;

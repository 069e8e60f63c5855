// The saved-view calls' shapes: the sidebar's views and pins (db/read-models/
// view-sidebar.ts), and a view's rows, from the mirror or said unavailable.
// Writes go through the collection calls (kind 'view' or 'view_pin').
import { z } from 'zod';
import { idSchema } from './id-schemas';
import { taskRowSchema } from './screen-schemas';

export {
  type ViewPinSummary,
  type ViewSidebar,
  type ViewSummary,
  viewSidebarSchema,
} from '../db/read-models/view-sidebar';

export const viewRowsRequestSchema = z.strictObject({
  view_id: idSchema,
  /** The cursor of the page before (`next`). */
  after: z.string().max(2000).nullable().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});

export const viewRowsSchema = z.discriminatedUnion('available', [
  z.object({
    available: z.literal(true),
    /** `service`: a view whose filters this version does not know, read from the service while online. */
    source: z.enum(['mirror', 'service']),
    rows: z.array(taskRowSchema),
    next: z.string().nullable(),
  }),
  z.object({
    available: z.literal(false),
    /** `unknown-filters`: a filter of a newer service, never answered without it (offline now); `no-such-view`: gone. */
    reason: z.enum(['no-such-view', 'unknown-filters']),
    detail: z.string(),
  }),
]);
export type ViewRowsAnswer = z.infer<typeof viewRowsSchema>;

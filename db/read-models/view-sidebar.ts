// The saved views a person can open and the ones they pinned, as the sidebar
// shows them: from the mirror (offline too), with what still waits applied
// (a view saved or a pin moved offline stands at once, marked pending), the
// pins in their `position` order.
import { z } from 'zod';
import { viewQueryOf, type ViewQuery } from '../../protocol/view';
import { textOf } from '../../protocol/wire-fields';
import type { Mirror } from '../mirror';
import { pendingMark, pendingSchema } from './workspace';

export const viewSummarySchema = z.object({
  view_id: z.string(),
  name: z.string(),
  /** `private` or `shared`; more may exist (kept as sent). */
  visibility: z.string().nullable(),
  /** `list` or `board`. */
  layout: z.string().nullable(),
  group_by: z.string().nullable(),
  sort_by: z.string().nullable(),
  sort_order: z.string().nullable(),
  /** As stored, any key kept (a newer service's too). */
  filters: z.record(z.string(), z.unknown()),
  created_by: z.string().nullable(),
  /** Why this version cannot answer its rows from the mirror (a filter it does not know); null when it can. */
  unknown_filters: z.string().nullable(),
  pending: pendingSchema,
});
export type ViewSummary = z.infer<typeof viewSummarySchema>;

export const viewPinSummarySchema = z.object({
  pin_id: z.string(),
  view_id: z.string(),
  position: z.number().nullable(),
  pending: pendingSchema,
});
export type ViewPinSummary = z.infer<typeof viewPinSummarySchema>;

export const viewSidebarSchema = z.object({
  /** Every view the person can read, by name. */
  views: z.array(viewSummarySchema),
  /** Their pins of views still there, in pin order (position, then when pinned). */
  pins: z.array(viewPinSummarySchema),
});
export type ViewSidebar = z.infer<typeof viewSidebarSchema>;

export function viewSidebar(mirror: Mirror): ViewSidebar {
  const views = (mirror.writesOf('view')?.list() ?? [])
    .map((view): ViewSummary => {
      const id = String(view.view_id);
      const filters =
        typeof view.filters === 'object' && view.filters !== null && !Array.isArray(view.filters)
          ? (view.filters as Record<string, unknown>)
          : {};
      const understood = viewQueryOf(view as ViewQuery);
      return {
        view_id: id,
        name: textOf(view.name) ?? id,
        visibility: textOf(view.visibility),
        layout: textOf(view.layout),
        group_by: textOf(view.group_by),
        sort_by: textOf(view.sort_by),
        sort_order: textOf(view.sort_order),
        filters,
        created_by: textOf(view.created_by),
        unknown_filters: 'unknown' in understood ? understood.unknown : null,
        ...pendingMark(view),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name) || a.view_id.localeCompare(b.view_id));
  const known = new Set(views.map((view) => view.view_id));
  const pins = (mirror.writesOf('view_pin')?.list() ?? [])
    .map((pin): ViewPinSummary & { created_at: string } => ({
      pin_id: String(pin.pin_id),
      view_id: String(pin.view_id),
      position: typeof pin.position === 'number' ? pin.position : null,
      created_at: textOf(pin.created_at) ?? '',
      ...pendingMark(pin),
    }))
    // A pin of a view deleted (here or elsewhere) goes with it, as the service removes it.
    .filter((pin) => known.has(pin.view_id))
    .sort(
      (a, b) =>
        (a.position ?? Number.POSITIVE_INFINITY) - (b.position ?? Number.POSITIVE_INFINITY) ||
        a.created_at.localeCompare(b.created_at) ||
        a.pin_id.localeCompare(b.pin_id),
    )
    .map(({ created_at: _, ...pin }) => pin);
  return { views, pins };
}

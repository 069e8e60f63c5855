// Saved views (gaps.md "Saved views and view pins": the contract lists their
// routes but not their shape). A view is a named task-list query: filters in
// the task list's vocabulary, a sort, a grouping and a layout, private to its
// creator or shared with the organization. Assumed, so the read schema is
// lenient: a filter key or value this version does not know is kept as sent
// (the raw JSON is mirrored whole) and never rewritten without it.
import { z } from 'zod';
import { boundedText, idReference } from './body-fields';
import {
  InvalidParameterError,
  parseTaskListQuery,
  SORT_ORDERS,
  TASK_SORT_KEYS,
  type TaskListQuery,
} from './task-list-query';
import { VIEW_NAME_MAX } from './view-filters';
import { writableKind } from './writable-kind';
import { idField, optionalString } from './wire-fields';

export const VIEW_VISIBILITIES = ['private', 'shared'] as const;
export const VIEW_LAYOUTS = ['list', 'board'] as const;
export const VIEW_GROUPINGS = ['status', 'priority', 'assignee', 'project', 'section', 'sprint'] as const;

/** A view's filters: task-list filter keys to their values (`{"status": ["blocked"]}`), any key kept. */
export const viewFiltersSchema = z.record(z.string(), z.array(z.string()));
export type ViewFilters = z.infer<typeof viewFiltersSchema>;

export const viewSchema = z.looseObject({
  view_id: idField,
  org_id: optionalString,
  name: z.string(),
  /** `private` or `shared`; more may exist. */
  visibility: optionalString,
  /** Kept whole even where a key or a value is unknown to this version. */
  filters: z.record(z.string(), z.unknown()).nullish(),
  sort_by: optionalString,
  sort_order: optionalString,
  group_by: optionalString,
  layout: optionalString,
  created_by: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type View = z.infer<typeof viewSchema>;

/** Body of `POST /v1/views` (gaps.md): a name unique among its creator's views (409). */
export const viewCreateBodySchema = z.object({
  org_id: idReference,
  name: boundedText(1, VIEW_NAME_MAX),
  visibility: z.enum(VIEW_VISIBILITIES).optional(),
  filters: viewFiltersSchema.optional(),
  sort_by: z.enum(TASK_SORT_KEYS).optional(),
  sort_order: z.enum(SORT_ORDERS).optional(),
  group_by: z.enum(VIEW_GROUPINGS).nullable().optional(),
  layout: z.enum(VIEW_LAYOUTS).optional(),
});
export type ViewCreateBody = z.infer<typeof viewCreateBodySchema>;

/**
 * Merge-patch body of `PATCH /v1/views/{view_id}`: the same fields. `filters`
 * merges key by key (RFC 7396), so a key this version does not know is kept;
 * a key set to null is removed.
 */
export const viewUpdateBodySchema = viewCreateBodySchema
  .omit({ org_id: true })
  .partial()
  .extend({ filters: z.record(z.string(), z.array(z.string()).nullable()).optional() });
export type ViewUpdateBody = z.infer<typeof viewUpdateBodySchema>;

/** Saved views as a writable kind (protocol/writable-kind.ts): one list for the organization; a delete answers 204 and removes its pins. */
export const viewKind = writableKind({
  entityType: 'view',
  collection: 'views',
  idField: 'view_id',
  route: { name: 'views', path: 'views', parent: null, idParam: 'viewId' },
  parentField: null,
  listedPer: 'organization',
  schemas: {
    read: viewSchema,
    // The organization is the account's, added when the create is sent.
    create: viewCreateBodySchema.omit({ org_id: true }),
    update: viewUpdateBodySchema,
    deleted: null,
  },
  orgIdInCreate: true,
  writeScope: 'tasks:write',
  derivedFields: [],
  filesTasksBy: null,
  columns: [
    ['name', 'string'],
    ['visibility', 'string'],
    ['layout', 'string'],
    ['created_by', 'string'],
  ],
  recreateFields: ['name', 'visibility', 'filters', 'sort_by', 'sort_order', 'group_by', 'layout'],
});

/** A view's query: its filters, sort and order, as stored (any filter kept). */
export type ViewQuery = Pick<View, 'filters' | 'sort_by' | 'sort_order'>;

/**
 * The task-list parameters a view's rows are (gaps.md: the rows of a view are
 * what `GET /v1/tasks` answers with its filters and sort): each filter key's
 * values comma-joined, a search whole (its commas are literal). Values that are
 * not a list of strings are passed as they are, for the parser to refuse.
 */
export function viewTaskListParams(view: ViewQuery): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, raw] of Object.entries(view.filters ?? {})) {
    const values = Array.isArray(raw) ? raw.map(String) : [String(raw)];
    if (key === 'search') for (const value of values) params.append(`filter[${key}]`, value);
    else params.append(`filter[${key}]`, values.join(','));
  }
  if (typeof view.sort_by === 'string') params.set('sort_by', view.sort_by);
  if (typeof view.sort_order === 'string') params.set('sort_order', view.sort_order);
  return params;
}

/**
 * The view's query as this version understands it, or why it cannot answer it
 * (a filter key or value of a newer service): such a view is shown from the
 * service's `rows` while online and is not available offline.
 */
export function viewQueryOf(view: ViewQuery): { query: TaskListQuery } | { unknown: string } {
  for (const [key, values] of Object.entries(view.filters ?? {})) {
    if (!Array.isArray(values) || values.some((value) => typeof value !== 'string'))
      return { unknown: `filter '${key}' is not a list of values` };
  }
  try {
    return { query: parseTaskListQuery(viewTaskListParams(view)) };
  } catch (error) {
    if (error instanceof InvalidParameterError) return { unknown: error.message };
    throw error;
  }
}

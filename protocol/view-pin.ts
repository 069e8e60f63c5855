// A person's pins of saved views (gaps.md "Saved views and view pins"): which
// views stand in their sidebar, in `position` order. Assumed, so lenient.
import { z } from 'zod';
import { idReference } from './body-fields';
import { writableKind } from './writable-kind';
import { idField, optionalNumber, optionalString } from './wire-fields';

export const viewPinSchema = z.looseObject({
  pin_id: idField,
  view_id: idField,
  user_id: optionalString,
  position: optionalNumber,
  created_at: optionalString,
});
export type ViewPin = z.infer<typeof viewPinSchema>;

/** Body of `POST /v1/view-pins`: a view pinned once per person (409 when it already is). */
export const viewPinCreateBodySchema = z.object({
  org_id: idReference,
  view_id: idReference,
  position: z.number().finite(),
});
export type ViewPinCreateBody = z.infer<typeof viewPinCreateBodySchema>;

/** Merge-patch body of `PATCH /v1/view-pins/{pin_id}`: a move. */
export const viewPinUpdateBodySchema = z.object({
  position: z.number().finite().optional(),
});
export type ViewPinUpdateBody = z.infer<typeof viewPinUpdateBodySchema>;

/** View pins as a writable kind (protocol/writable-kind.ts): the caller's own, one list; a delete answers 204. */
export const viewPinKind = writableKind({
  entityType: 'view_pin',
  collection: 'view_pins',
  idField: 'pin_id',
  route: { name: 'view-pins', path: 'view-pins', parent: null, idParam: 'pinId' },
  parentField: null,
  listedPer: 'organization',
  schemas: {
    read: viewPinSchema,
    create: viewPinCreateBodySchema.omit({ org_id: true }),
    update: viewPinUpdateBodySchema,
    deleted: null,
  },
  orgIdInCreate: true,
  writeScope: 'tasks:write',
  derivedFields: [],
  filesTasksBy: null,
  columns: [
    ['view_id', 'string'],
    ['position', 'number'],
  ],
  recreateFields: ['view_id', 'position'],
});

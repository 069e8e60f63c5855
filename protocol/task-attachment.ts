// A task's attachment (gaps.md "Attachments": the contract names attachments
// but not their shape). Assumed, so read leniently: the two ids are what the
// client keys on, every other field may be absent or null, unknown ones kept.
import { z } from 'zod';
import { boundedText, idReference } from './body-fields';
import { writableKind } from './writable-kind';
import { idField, optionalInt, optionalString } from './wire-fields';

export const taskAttachmentSchema = z.looseObject({
  attachment_id: idField,
  task_id: idField,
  org_id: optionalString,
  project_id: optionalString,
  file_name: optionalString,
  content_type: optionalString,
  size_bytes: optionalInt,
  /** Hex SHA-256 of the content; the content's ETag is this, quoted. */
  sha256: optionalString,
  created_by: optionalString,
  created_at: optionalString,
  updated_at: optionalString,
});
export type TaskAttachment = z.infer<typeof taskAttachmentSchema>;

export const ATTACHMENT_FILE_NAME_MAX = 255;

/** The `file_name` of an attachment: 1..255 characters. */
export const attachmentFileNameField = boundedText(1, ATTACHMENT_FILE_NAME_MAX);

/** Merge-patch body of `PATCH /v1/task-attachments/{attachment_id}` (gaps.md): a rename, with `If-Match`. */
export const taskAttachmentUpdateBodySchema = z.object({
  file_name: attachmentFileNameField.optional(),
});
export type TaskAttachmentUpdateBody = z.infer<typeof taskAttachmentUpdateBodySchema>;

/**
 * An upload as the outbox keeps it until it is sent: the form's `task_id` and
 * the file's name and declared type, with the size and SHA-256 of the copy the
 * app keeps of it (the bytes are found by their SHA-256 in the app's files, so
 * the original may move or change). Sent as `multipart/form-data`, never as JSON.
 */
export const taskAttachmentCreateBodySchema = z.object({
  task_id: idReference,
  file_name: attachmentFileNameField,
  content_type: z.string().min(1).max(255),
  size_bytes: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected a hex SHA-256'),
});
export type TaskAttachmentCreateBody = z.infer<typeof taskAttachmentCreateBodySchema>;

/**
 * Attachments as a writable kind (protocol/writable-kind.ts): listed once for
 * the organization (`?org_id=…`: every attachment of the readable tasks),
 * renamed and deleted as any kind; the create is an upload (its push kind
 * sends the form).
 */
export const taskAttachmentKind = writableKind({
  entityType: 'attachment',
  collection: 'task_attachments',
  idField: 'attachment_id',
  route: { name: 'task-attachments', path: 'task-attachments', parent: null, idParam: 'attachmentId' },
  parentField: null,
  listedPer: 'organization',
  schemas: {
    read: taskAttachmentSchema,
    create: taskAttachmentCreateBodySchema,
    update: taskAttachmentUpdateBodySchema,
    deleted: null,
  },
  orgIdInCreate: false,
  writeScope: 'tasks:write',
  derivedFields: [],
  filesTasksBy: null,
  columns: [
    ['task_id', 'string'],
    ['file_name', 'string'],
    ['content_type', 'string'],
    ['size_bytes', 'number'],
    ['sha256', 'string'],
    ['created_by', 'string'],
    ['created_at', 'string'],
  ],
  recreateFields: ['task_id', 'file_name', 'content_type', 'size_bytes', 'sha256'],
});

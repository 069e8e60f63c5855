// A task's attachment (gaps.md "Attachments": the contract names attachments
// but not their shape). Assumed, so read leniently: the two ids are what the
// client keys on, every other field may be absent or null, unknown ones kept.
import { z } from 'zod';
import { boundedText } from './body-fields';
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

// The attachment calls' shapes: a task's attachments from the mirror, files
// added through main's own file picker (checked by the upload rules before
// anything is queued), and one opened with the system's default app on the
// person's click. Renames and deletes are the collection calls' (kind `attachment`).
import { z } from 'zod';
import { attachmentSummarySchema } from '../db/read-models/task-attachments';
import { UPLOAD_LIMIT_BYTES } from '../protocol/upload-rules';
import { idSchema } from './id-schemas';

export const attachmentListInputSchema = z.strictObject({ task_id: idSchema });
export const attachmentListSchema = z.array(attachmentSummarySchema);
export type { AttachmentSummary } from '../db/read-models/task-attachments';

export const attachmentAddInputSchema = z.strictObject({ task_id: idSchema });

/**
 * Room over the upload limit for a dropped file's bytes: one a little over is
 * still let through, to be refused by the upload rules in the contract's words
 * (413 naming the limit); anything far past it is not a file the page read.
 */
const DROPPED_MARGIN_BYTES = 1024 * 1024;

/**
 * A file dropped on a task: its name, the type the system declared for it and
 * the bytes the page read from it. Never a path: a page that could name a path
 * could have main upload any file on disk.
 */
export const attachmentDropInputSchema = z.strictObject({
  task_id: idSchema,
  file_name: z.string().trim().min(1).max(255),
  declared_type: z.string().max(255),
  bytes: z
    .instanceof(Uint8Array)
    .refine((bytes) => bytes.byteLength <= UPLOAD_LIMIT_BYTES + DROPPED_MARGIN_BYTES, {
      message: 'far over the upload limit',
    }),
});

/** What came of the files the person picked: each queued, or refused with the contract's words. */
export const attachmentAddedSchema = z.object({
  queued: z.array(z.object({ attachment_id: z.string(), op_id: z.string(), file_name: z.string() })),
  refused: z.array(
    z.object({
      file_name: z.string(),
      status: z.number().int(),
      /** The contract's problem type: `upload-too-large`, `upload-type-not-allowed`, `upload-type-mismatch`. */
      type: z.string(),
      title: z.string(),
      detail: z.string(),
    }),
  ),
});
export type AttachmentAdded = z.infer<typeof attachmentAddedSchema>;

export const attachmentOpenInputSchema = z.strictObject({ attachment_id: idSchema });

/** The attachments' content kept on this computer: how much the person allows, how much the signed-in account uses. */
export const attachmentCacheSchema = z.object({
  limit_bytes: z.number().int().min(0),
  used_bytes: z.number().int().min(0),
});
export type AttachmentCache = z.infer<typeof attachmentCacheSchema>;

/** At most 1 TB: a size a person could mean; 0 keeps nothing for offline opening. */
export const attachmentCacheSetInputSchema = z.strictObject({
  limit_bytes: z
    .number()
    .int()
    .min(0)
    .max(1024 ** 4),
});

/**
 * An upload on its way (main → renderer, a few times a second): `sent_bytes`
 * of the request's `total_bytes` written so far. A new attempt (a retry, the
 * app restarted) starts from 0 again: the contract has no resumable upload.
 */
export const attachmentUploadProgressSchema = z
  .object({
    account_id: z.string(),
    /** The attachment's id as the list shows it (the temporary one while its upload waits). */
    attachment_id: z.string(),
    op_id: z.string(),
    sent_bytes: z.number().int().min(0),
    total_bytes: z.number().int().min(0),
  })
  .refine((progress) => progress.sent_bytes <= progress.total_bytes, {
    message: 'more bytes sent than the upload holds',
  });
export type AttachmentUploadProgress = z.infer<typeof attachmentUploadProgressSchema>;

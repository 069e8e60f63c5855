// One task's attachments as the editor and the headless command list them:
// from the mirror (offline too), oldest first, with an upload or a rename
// still waiting in the outbox shown at once and marked so.
import { z } from 'zod';
import { taskAttachmentKind } from '../../protocol/task-attachment';
import { textOf } from '../../protocol/wire-fields';
import type { Mirror } from '../mirror';
import { pendingMark, pendingSchema } from './workspace';

/** One attachment in a task's list: name, type, size, who and when. */
export const attachmentSummarySchema = z.object({
  attachment_id: z.string(),
  task_id: z.string(),
  file_name: z.string(),
  content_type: z.string().nullable(),
  size_bytes: z.number().int().nullable(),
  /** Hex SHA-256 of the content: where a downloaded or uploaded copy is found. */
  sha256: z.string().nullable(),
  created_by: z.string().nullable(),
  /** Null while its upload waits (the service has not dated it yet). */
  created_at: z.string().nullable(),
  pending: pendingSchema,
});
export type AttachmentSummary = z.infer<typeof attachmentSummarySchema>;

export function taskAttachments(mirror: Mirror, taskId: string): AttachmentSummary[] {
  const writes = mirror.writesOf(taskAttachmentKind.entityType);
  if (writes === null) throw new Error('attachments are not a writable kind of this mirror');
  return writes
    .listWhere('task_id', taskId)
    .map((a): AttachmentSummary => {
      const id = String(a.attachment_id);
      return {
        attachment_id: id,
        task_id: taskId,
        file_name: textOf(a.file_name) ?? id,
        content_type: textOf(a.content_type),
        size_bytes: typeof a.size_bytes === 'number' ? a.size_bytes : null,
        sha256: textOf(a.sha256),
        created_by: textOf(a.created_by),
        created_at: textOf(a.created_at),
        ...pendingMark(a),
      };
    })
    .sort(
      // Waiting uploads (not dated yet) after the ones the service holds.
      (a, b) =>
        (a.created_at ?? '\uffff').localeCompare(b.created_at ?? '\uffff') ||
        a.attachment_id.localeCompare(b.attachment_id),
    );
}

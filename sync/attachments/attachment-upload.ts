// A file a person adds to a task, checked before anything is queued by the
// contract's upload rules (protocol/upload-rules.ts: its size, a forbidden
// type, a name its bytes contradict), in the service's own words, then copied
// into the app's private files at once (the original may move or change
// before it is sent) and queued in the outbox as an upload; the pusher sends
// it under the operation's Idempotency-Key (sync/push/kinds/attachment.ts).
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { inflateRawHead } from '../../protocol/inflate-raw-head';
import type { TaskAttachmentCreateBody } from '../../protocol/task-attachment';
import {
  judgeUpload,
  type UploadCandidate,
  type UploadRefusal,
  uploadSizeRefusal,
} from '../../protocol/upload-rules';
import type { AttachmentFiles } from '../../db/attachments/attachment-files';
import type { Mirror } from '../../db/mirror';
import { taskAttachmentKind } from '../../protocol/task-attachment';

export type PreparedUpload =
  { ok: true; body: TaskAttachmentCreateBody } | { ok: false; refusal: UploadRefusal };

/**
 * Judges the file at `path` (named `fileName`, else its own name) as the
 * service would, and keeps a copy of an accepted one in `files`. A file over
 * the limit is refused on its size alone, before it is read.
 */
export async function prepareUpload(
  files: AttachmentFiles,
  taskId: string,
  path: string,
  fileName: string = basename(path),
): Promise<PreparedUpload> {
  const tooLarge = uploadSizeRefusal((await stat(path)).size);
  if (tooLarge) return { ok: false, refusal: tooLarge };
  return prepareUploadBytes(files, taskId, { fileName, declaredType: null, bytes: await readFile(path) });
}

/**
 * Judges bytes already read (a file dropped on the page, its name and the
 * type the system declared for it) by the same rules, and keeps an accepted
 * copy in `files`: the one way any file becomes an upload.
 */
export function prepareUploadBytes(
  files: AttachmentFiles,
  taskId: string,
  candidate: UploadCandidate,
): PreparedUpload {
  const tooLarge = uploadSizeRefusal(candidate.bytes.byteLength);
  if (tooLarge) return { ok: false, refusal: tooLarge };
  const verdict = judgeUpload(candidate, { inflateRawHead });
  if (!verdict.ok) return verdict;
  const kept = files.keep(candidate.bytes);
  return {
    ok: true,
    body: {
      task_id: taskId,
      file_name: candidate.fileName,
      content_type: verdict.contentType,
      size_bytes: kept.size,
      sha256: kept.sha256,
    },
  };
}

/** Queues a prepared upload in the mirror's outbox; shown at once in the task's list, under a temporary id. */
export function queueUpload(mirror: Mirror, body: TaskAttachmentCreateBody): { id: string; opId: string } {
  const writes = mirror.writesOf(taskAttachmentKind.entityType);
  if (writes === null) throw new Error('attachments are not a writable kind of this mirror');
  return writes.create({ ...body });
}

/** A refusal as one line in the contract's words: its title, detail and problem type. */
export function refusalWords(refusal: UploadRefusal): string {
  return `${refusal.title}: ${refusal.detail} (${refusal.status} ${refusal.type})`;
}

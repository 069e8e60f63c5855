// Whether an attachment's kept content may be handed to the system's default
// app, and the file to hand it: only content the app holds (checked against
// its sha256), only when its bytes and its name pass the same rules an upload
// does (protocol/upload-rules.ts: never an executable, a script, HTML, SVG or
// XML whatever it is called, never a name its bytes contradict), and always a
// copy under its own name inside the app's private folder, since the default
// app is chosen by the name's extension.
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AttachmentFiles } from '../../db/attachments/attachment-files';
import { OWNER_DIRECTORY_MODE } from '../../db/files/owner-only-files';
import { inflateRawHead } from '../../protocol/inflate-raw-head';
import { judgeUpload } from '../../protocol/upload-rules';

export type OpenVerdict =
  { ok: true; path: string } | { ok: false; reason: 'not-kept' | 'not-safe'; message: string };

/** A file name safe as one path segment: no folders, no control characters, not `.` or `..`. */
function segmentOf(fileName: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const plain = fileName.replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_').trim();
  return plain === '' || plain === '.' || plain === '..' ? 'attachment' : plain.slice(0, 200);
}

export function openableAttachment(
  files: AttachmentFiles,
  attachment: { sha256: string; fileName: string },
): OpenVerdict {
  const bytes = files.read(attachment.sha256);
  if (bytes === null)
    return { ok: false, reason: 'not-kept', message: `${attachment.fileName} is not on this computer yet` };
  const verdict = judgeUpload(
    { fileName: attachment.fileName, declaredType: null, bytes },
    { inflateRawHead },
  );
  if (!verdict.ok)
    return {
      ok: false,
      reason: 'not-safe',
      message: `${attachment.fileName} is not opened: ${verdict.refusal.detail}`,
    };
  const folder = join(files.dir, 'open', attachment.sha256);
  mkdirSync(folder, { recursive: true, mode: OWNER_DIRECTORY_MODE });
  const path = join(folder, segmentOf(attachment.fileName));
  if (!existsSync(path)) copyFileSync(files.pathOf(attachment.sha256), path);
  return { ok: true, path };
}

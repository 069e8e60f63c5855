// Files dropped on a task (a row of the list, a board card, the editor) are
// attached to it. The page never hands main a path: a page that could name
// one could have main upload any file on disk. It reads each dropped File's
// bytes and sends them with the name and the type the system declared for it
// (attachment:drop); main checks them by the same rules as a picked file and
// queues them the same way. A file over the limit is refused here on its size,
// before it is read, in the contract's words as main would say them.
import type { DragEvent } from 'react';
import type { AttachmentAdded } from '../../../ipc/attachment-schemas';
import { uploadSizeRefusal } from '../../../protocol/upload-rules';
import { invoke } from '../bridge/svc';
import { showNotice, showProblem } from '../store/session-store';
import { type DropTarget, type OtherDrags, useDropTarget } from './drop-target';
import { useKindReadOnly } from './kind-consent';
import './file-drop.css';

/** Whether a drag carries files from outside the page (their names and bytes are readable only on drop). */
export function carriesFiles(event: DragEvent): boolean {
  return event.dataTransfer.types.includes('Files');
}

/** Each file checked and queued by main, or refused (one over the limit before its bytes are read). */
export async function attachDroppedFiles(taskId: string, files: readonly File[]): Promise<AttachmentAdded> {
  const answer: AttachmentAdded = { queued: [], refused: [] };
  for (const file of files) {
    const tooLarge = uploadSizeRefusal(file.size);
    if (tooLarge) {
      const { status, type, title, detail } = tooLarge;
      answer.refused.push({ file_name: file.name, status, type, title, detail });
      continue;
    }
    const added = await invoke('attachment:drop', {
      task_id: taskId,
      file_name: file.name,
      declared_type: file.type,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    answer.queued.push(...added.queued);
    answer.refused.push(...added.refused);
  }
  return answer;
}

/** Says refusals on the app's notice (the contract's title, by its type), for a target with no list to say them in. */
export function noticeRefusals(added: AttachmentAdded): void {
  for (const refused of added.refused) showNotice(refused.type, `${refused.file_name} was not attached`);
}

// A drop on a target inside another (the editor's attachments, inside the editor) is taken once, by the innermost.
const taken = new WeakSet<Event>();

/**
 * A drop target for files on one task. A sign-in that may not change
 * attachments takes no drop (the drag shows it would not). `onAdded` hears
 * what came of each drop; `otherwise` gets a drag that carries no files (a
 * task moved on a board).
 */
export function useFileDrop<E extends HTMLElement = HTMLElement>(
  taskId: string,
  onAdded: (added: AttachmentAdded) => void,
  otherwise?: OtherDrags<E>,
): DropTarget<E> {
  const readOnly = useKindReadOnly('attachment');
  return useDropTarget<E>(
    (event) => !readOnly && carriesFiles(event),
    'copy',
    (event) => {
      if (taken.has(event.nativeEvent)) return;
      taken.add(event.nativeEvent);
      const files = [...event.dataTransfer.files];
      if (files.length === 0) return;
      attachDroppedFiles(taskId, files).then(onAdded, (error: unknown) =>
        showProblem(error, 'Attaching files'),
      );
    },
    otherwise,
  );
}

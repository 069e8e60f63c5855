// The attachment calls: a task's attachments from the mirror; files the person
// picks in main's own dialog or drops on the page (the bytes the page read,
// never a path it names), each checked by the upload rules, copied into the
// account's private files and queued (or refused in the contract's words); and
// one opened, on the person's click only, with the system's default app from
// the private folder, never one whose bytes or name say it runs code.
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import { taskAttachments } from '../../db/read-models/task-attachments';
import { writeWhenFree } from '../../db/write-when-free';
import type { AttachmentAdded } from '../../ipc/attachment-schemas';
import { taskAttachmentKind } from '../../protocol/task-attachment';
import { openableAttachment } from '../../sync/attachments/attachment-open';
import {
  type PreparedUpload,
  prepareUpload,
  prepareUploadBytes,
  queueUpload,
} from '../../sync/attachments/attachment-upload';
import type { IpcGate, IpcHandlers } from './gate';
import { IpcHandlerError } from './gate';
import { type ActiveMirror, signedInAccount, writableAccount } from './task-handlers';

interface Named {
  readonly fileName: string;
  readonly prepared: PreparedUpload;
}

export interface AttachmentHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
  /** Main's file picker (several files); the paths picked, none when cancelled. */
  readonly pickFiles: () => Promise<string[]>;
  /** The system's default app for a file (`shell.openPath`): '' when it opened, else why not. */
  readonly openPath: (path: string) => Promise<string>;
}

export function attachmentHandlers(dependencies: AttachmentHandlerDependencies): IpcHandlers {
  function changed(account: ActiveMirror, taskId: string): void {
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      collections: [taskAttachmentKind.collection],
      task_ids: [taskId],
      remapped: [],
    });
    account.edited();
  }

  function taskAccount(taskId: string): ActiveMirror {
    const account = writableAccount(dependencies.active, 'attachments', taskAttachmentKind.entityType);
    if (account.mirror.tasks.get(taskId) === null)
      throw new IpcHandlerError('not-found', 'That task is not in this account any more.');
    return account;
  }

  /** Picked or dropped, each file checked is queued the same way, or refused in the contract's words. */
  async function queueAll(account: ActiveMirror, taskId: string, files: Named[]): Promise<AttachmentAdded> {
    const answer: AttachmentAdded = { queued: [], refused: [] };
    for (const { fileName, prepared } of files) {
      if (!prepared.ok) {
        const { status, type, title, detail } = prepared.refusal;
        answer.refused.push({ file_name: fileName, status, type, title, detail });
        continue;
      }
      const queued = await writeWhenFree(account.mirror, () => queueUpload(account.mirror, prepared.body));
      answer.queued.push({
        attachment_id: queued.id,
        op_id: queued.opId,
        file_name: prepared.body.file_name,
      });
    }
    if (answer.queued.length > 0) changed(account, taskId);
    return answer;
  }

  return {
    'attachments:list': ({ task_id }) =>
      taskAttachments(signedInAccount(dependencies.active).mirror, task_id),
    'attachment:add': async ({ task_id }) => {
      const account = taskAccount(task_id);
      const files = AttachmentFiles.beside(account.mirror.file);
      const prepared: Named[] = [];
      for (const path of await dependencies.pickFiles())
        prepared.push({
          fileName: path.split(/[\\/]/).pop() ?? path,
          prepared: await prepareUpload(files, task_id, path),
        });
      return queueAll(account, task_id, prepared);
    },
    'attachment:drop': ({ task_id, file_name, declared_type, bytes }) => {
      const account = taskAccount(task_id);
      const files = AttachmentFiles.beside(account.mirror.file);
      const candidate = {
        fileName: file_name,
        declaredType: declared_type === '' ? null : declared_type,
        bytes,
      };
      return queueAll(account, task_id, [
        { fileName: file_name, prepared: prepareUploadBytes(files, task_id, candidate) },
      ]);
    },
    'attachment:open': async ({ attachment_id }) => {
      const account = signedInAccount(dependencies.active);
      const record = account.mirror.writesOf(taskAttachmentKind.entityType)?.get(attachment_id);
      const sha256 = typeof record?.sha256 === 'string' ? record.sha256 : null;
      const fileName = typeof record?.file_name === 'string' ? record.file_name : attachment_id;
      if (record === undefined)
        throw new IpcHandlerError('not-found', 'That attachment is not on this task any more.');
      if (sha256 === null)
        throw new IpcHandlerError(
          'not-safe',
          `${fileName} cannot be checked (the service gave no sha256), so it is not opened.`,
        );
      const files = AttachmentFiles.beside(account.mirror.file);
      if (!files.has(sha256) && !(await account.attachmentContent?.(attachment_id, sha256)))
        throw new IpcHandlerError(
          'offline',
          `${fileName} is not on this computer yet; it can be opened once online.`,
        );
      const verdict = openableAttachment(files, { sha256, fileName });
      if (!verdict.ok)
        throw new IpcHandlerError(verdict.reason === 'not-kept' ? 'offline' : 'not-safe', verdict.message);
      const failure = await dependencies.openPath(verdict.path);
      if (failure !== '')
        throw new IpcHandlerError('internal', `${fileName} could not be opened: ${failure}`);
      return null;
    },
  };
}

// `attachment add|list|get|rename|delete`: a task's attachments as the mirror
// holds them (offline), a file added (checked by the contract's upload rules
// before anything is queued, copied into the app's files at once, queued as an
// upload the next sync sends), a download of one's content into the app's
// private files (resumed after a cut connection, checked against its sha256);
// the rename and delete are the collection command's, from the descriptor.
import { resolve } from 'node:path';
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import { taskAttachments } from '../../db/read-models/task-attachments';
import { taskAttachmentKind } from '../../protocol/task-attachment';
import { ApiClient } from '../api/api-client';
import { downloadAttachment } from '../attachments/attachment-download';
import { prepareUpload, queueUpload, refusalWords } from '../attachments/attachment-upload';
import { EXIT, type ExitCode, UsageError } from './cli-usage';
import type { CliIo } from './cli-io';
import { type CollectionCommandSpec, collectionCommand, refusedToQueue } from './collection-command';
import { readStoredLogin } from './login-command';
import { line, parseOptions, required, withMirror } from './mirror-commands';
import { credentialsOf, pastedTokenOf } from './sync-command';

/** The `attachment` command: list, add and get here, rename and delete the collection command's. */
export function attachmentCommand(spec: CollectionCommandSpec) {
  const writes = collectionCommand(spec);
  return async (args: readonly string[], io: CliIo): Promise<ExitCode> => {
    const [verb, ...rest] = args;
    if (verb === 'list') return list(rest, io);
    if (verb === 'add') return add(spec, rest, io);
    if (verb === 'get') return get(rest, io);
    if (verb === spec.verbs.edit || verb === spec.verbs.delete) return writes(args, io);
    throw new UsageError(
      `attachment: give one of list, add, get, ${spec.verbs.edit}, ${spec.verbs.delete}${verb === undefined ? '' : `, not '${verb}'`}`,
    );
  };
}

async function list(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('attachment list', args, { db: { type: 'string' }, task: { type: 'string' } });
  const file = required('attachment list', 'db', values.db);
  const taskId = required('attachment list', 'task', values.task);
  return withMirror('attachment list', file, true, (mirror) => {
    for (const attachment of taskAttachments(mirror, taskId)) line(io, attachment);
    return EXIT.ok;
  });
}

async function add(spec: CollectionCommandSpec, args: readonly string[], io: CliIo): Promise<ExitCode> {
  const command = 'attachment add';
  const values = parseOptions(command, args, {
    db: { type: 'string' },
    task: { type: 'string' },
    file: { type: 'string' },
    name: { type: 'string' },
  });
  const db = required(command, 'db', values.db);
  const taskId = required(command, 'task', values.task);
  const path = required(command, 'file', values.file);
  const login = await readStoredLogin(resolve(db));
  return withMirror(command, db, false, async (mirror) => {
    if (refusedToQueue(command, db, login, mirror, spec, io)) return EXIT.failed;
    if (mirror.tasks.get(taskId) === null)
      throw new UsageError(`${command}: no task ${taskId} in the mirror`);
    let prepared;
    try {
      prepared = await prepareUpload(AttachmentFiles.beside(mirror.file), taskId, path, values.name);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES')
        throw new UsageError(`${command}: cannot read --file ${path} (${code})`);
      throw error;
    }
    if (!prepared.ok) {
      io.stderr(`${command}: ${refusalWords(prepared.refusal)}; nothing was queued\n`);
      return EXIT.failed;
    }
    const queued = queueUpload(mirror, prepared.body);
    line(io, { attachment_id: queued.id, op_id: queued.opId, queued: true, ...prepared.body });
    return EXIT.ok;
  });
}

async function get(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const command = 'attachment get';
  const values = parseOptions(command, args, {
    db: { type: 'string' },
    attachment: { type: 'string' },
    'base-url': { type: 'string' },
    token: { type: 'string' },
    'token-file': { type: 'string' },
  });
  const db = required(command, 'db', values.db);
  const attachmentId = required(command, 'attachment', values.attachment);
  const { baseUrl, credentials } = await credentialsOf(
    db,
    values['base-url'],
    await pastedTokenOf(values, io),
  );
  const record = await withMirror(command, db, true, (mirror) => {
    const writes = mirror.writesOf(taskAttachmentKind.entityType);
    return writes?.get(attachmentId) ?? null;
  });
  if (record === null)
    throw new UsageError(
      `${command}: no attachment ${attachmentId} in the mirror; sync first, or list them with: attachment list`,
    );
  const sha256 = typeof record.sha256 === 'string' ? record.sha256 : null;
  if (sha256 === null) {
    io.stderr(
      `${command}: the service gave no sha256 for ${attachmentId}, so its content cannot be checked; not downloaded\n`,
    );
    return EXIT.failed;
  }
  const api = new ApiClient({ baseUrl, credentials });
  try {
    const content = await downloadAttachment(
      api,
      AttachmentFiles.beside(resolve(db)),
      { attachmentId, sha256 },
      {
        ...(io.signal ? { signal: io.signal } : {}),
      },
    );
    line(io, {
      attachment_id: attachmentId,
      path: content.path,
      sha256: content.sha256,
      size_bytes: content.bytes,
      cached: content.cached,
      resumed_from: content.resumedFrom,
    });
    return EXIT.ok;
  } finally {
    await api.close();
  }
}

// `comment create|edit|delete`: queues a person's comment, reply, edit or
// delete in the mirror's outbox without network, as the app does through
// mirror.comments; the next sync sends it. One NDJSON line on stdout.
import { EXIT, type ExitCode, UsageError } from './cli-usage';
import type { CliIo } from './cli-io';
import { line, parseOptions, required, withMirror } from './mirror-commands';
import { parseKindSetValues } from './set-values';

const VERBS = ['create', 'edit', 'delete'] as const;

export async function commentCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const [verb, ...rest] = args;
  if (verb === 'create') return createComment(rest, io);
  if (verb === 'edit') return editComment(rest, io);
  if (verb === 'delete') return deleteComment(rest, io);
  throw new UsageError(
    `comment: give one of ${VERBS.join(', ')}${verb === undefined ? '' : `, not '${verb}'`}`,
  );
}

function text(command: string, field: string, value: unknown): string {
  if (typeof value !== 'string') throw new UsageError(`${command}: --set ${field}=TEXT is required`);
  return value;
}

async function createComment(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const command = 'comment create';
  const values = parseOptions(command, args, {
    db: { type: 'string' },
    set: { type: 'string', multiple: true },
  });
  const file = required(command, 'db', values.db);
  const fields = parseKindSetValues(values.set ?? [], ['task_id', 'content', 'parent_comment_id']);
  const taskId = text(command, 'task_id', fields.task_id);
  const content = text(command, 'content', fields.content);
  const parent = fields.parent_comment_id;
  return withMirror(command, file, false, (mirror) => {
    const created = mirror.comments.create({
      taskId,
      content,
      ...(typeof parent === 'string' ? { parentCommentId: parent } : {}),
    });
    line(io, { comment_id: created.commentId, task_id: taskId, op_id: created.opId, queued: true });
    return EXIT.ok;
  });
}

async function editComment(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const command = 'comment edit';
  const values = parseOptions(command, args, {
    db: { type: 'string' },
    comment: { type: 'string' },
    set: { type: 'string', multiple: true },
  });
  const file = required(command, 'db', values.db);
  const commentId = required(command, 'comment', values.comment);
  const content = text(command, 'content', parseKindSetValues(values.set ?? [], ['content']).content);
  return withMirror(command, file, false, (mirror) => {
    const queued = mirror.comments.edit(commentId, content);
    line(io, { comment_id: commentId, op_id: queued?.opId ?? null, queued: queued !== null });
    return EXIT.ok;
  });
}

async function deleteComment(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const command = 'comment delete';
  const values = parseOptions(command, args, { db: { type: 'string' }, comment: { type: 'string' } });
  const file = required(command, 'db', values.db);
  const commentId = required(command, 'comment', values.comment);
  return withMirror(command, file, false, (mirror) => {
    const queued = mirror.comments.delete(commentId);
    line(io, { comment_id: commentId, op_id: queued?.opId ?? null, queued: queued !== null });
    return EXIT.ok;
  });
}

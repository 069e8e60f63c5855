// `comment create|edit|delete` and `section create|edit|delete`: queue a
// person's comment, reply, section or their edit or delete in the mirror's
// outbox without network, as the app does through mirror.comments and
// mirror.sections; the next sync sends it. One NDJSON line on stdout.
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

/**
 * `section create|edit|delete`: the same for sections, through mirror.sections
 * (create needs scope_type, scope_id and name; edit renames or moves).
 */
export async function sectionCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const [verb, ...rest] = args;
  const command = `section ${verb ?? ''}`.trim();
  if (verb === 'create') {
    const values = parseOptions(command, rest, {
      db: { type: 'string' },
      set: { type: 'string', multiple: true },
    });
    const file = required(command, 'db', values.db);
    const fields = parseKindSetValues(values.set ?? [], ['scope_type', 'scope_id', 'name', 'position']);
    for (const field of ['scope_type', 'scope_id', 'name']) text(command, field, fields[field]);
    return withMirror(command, file, false, (mirror) => {
      const created = mirror.sections.create(fields);
      line(io, { section_id: created.id, op_id: created.opId, queued: true });
      return EXIT.ok;
    });
  }
  if (verb === 'edit' || verb === 'delete') {
    const values = parseOptions(command, rest, {
      db: { type: 'string' },
      section: { type: 'string' },
      set: { type: 'string', multiple: true },
    });
    const file = required(command, 'db', values.db);
    const sectionId = required(command, 'section', values.section);
    const set = values.set ?? [];
    if (verb === 'delete' && set.length > 0) throw new UsageError(`${command}: takes no --set`);
    const patch = parseKindSetValues(set, ['name', 'position']);
    if (verb === 'edit' && Object.keys(patch).length === 0)
      throw new UsageError(`${command}: give at least one --set name=TEXT or --set position=NUMBER`);
    return withMirror(command, file, false, (mirror) => {
      const queued =
        verb === 'edit' ? mirror.sections.edit(sectionId, patch) : mirror.sections.delete(sectionId);
      line(io, { section_id: sectionId, op_id: queued?.opId ?? null, queued: queued !== null });
      return EXIT.ok;
    });
  }
  throw new UsageError(
    `section: give one of ${VERBS.join(', ')}${verb === undefined ? '' : `, not '${verb}'`}`,
  );
}

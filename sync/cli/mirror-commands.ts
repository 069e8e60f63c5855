// The headless command's offline subcommands: they read or change the mirror
// file only (no network), exactly as the app does through the same Mirror
// methods, and print NDJSON on stdout.
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { COLLECTION_NAMES, type CollectionName, isCollectionName } from '../../db/collections/collections';
import type { Mirror } from '../../db/mirror';
import { type Conflict, DELETED_REMOTELY, type OutboxOp } from '../../db/outbox/outbox-types';
import { changeStateWords, waitingWords } from '../../protocol/change-state-words';
import { refusedBodyFields } from '../../protocol/problem';
import { type WaitsOn, waitsOnFields, waitsOnOf } from '../../db/outbox/outbox-waits';
import { openMirror } from '../../db/open-mirror';
import { leftOutWords } from '../../db/tasks/recreate-references';
import { namesIn, referenceNames, type ReferenceNames } from '../../db/read-models/referenced-names';
import {
  discardOperation,
  OutboxReviewError,
  resolveConflicts,
  retryOperation,
} from '../../db/outbox/outbox-review';
import { EXIT, type ExitCode, UsageError } from './cli-usage';
import type { CliIo } from './cli-io';
import { parseKindSetValues, parseSetValues } from './set-values';
import { queueBulkChange } from '../../db/tasks/bulk-change';
import type { BulkTaskChange } from '../../db/tasks/bulk-task-change';
import { normalizeTaskQuery } from '../../db/task-query/task-query';
import { InvalidParameterError } from '../../protocol/task-list-query';

/** What `retry --set` may correct in an operation of a kind other than a task. */
const RETRY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  comment: ['content'],
  section: ['name', 'position'],
  sprint: ['name', 'description', 'goal', 'start_date', 'end_date', 'duration_weeks'],
  goal: ['name', 'description', 'target_date', 'position'],
  milestone: ['name', 'description', 'due_date', 'position'],
};

/**
 * Collections `export` offers: those the mirror keeps whole, and the comment
 * threads it keeps of the tasks a person is likely to open (one thread a line,
 * replies nested as the service lists them). History is a per-task cache only.
 */
const EXPORTABLE: readonly CollectionName[] = COLLECTION_NAMES.filter((name) => name !== 'task_history');

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

/** Parses one subcommand's options strictly: unknown options and stray arguments are usage errors. */
export function parseOptions<O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
): ReturnType<
  typeof parseArgs<{ args: string[]; options: O; strict: true; allowPositionals: false }>
>['values'] {
  try {
    return parseArgs({ args: [...args], options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${command}: ${(error as Error).message}`);
  }
}

export function required(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value === '') throw new UsageError(`${command}: --${name} is required`);
  return value;
}

async function openExisting(command: string, file: string, readonly: boolean): Promise<Mirror> {
  if (!existsSync(file)) {
    throw new UsageError(
      `${command}: there is no mirror at ${file}; check --db, or create it with: sync --base-url URL --token TOKEN --db ${file}`,
    );
  }
  return openMirror(file, { readonly });
}

export async function withMirror<T>(
  command: string,
  file: string,
  readonly: boolean,
  work: (mirror: Mirror) => Promise<T> | T,
): Promise<T> {
  const mirror = await openExisting(command, file, readonly);
  try {
    return await work(mirror);
  } finally {
    mirror.close();
  }
}

export function line(io: CliIo, value: unknown): void {
  io.stdout(`${JSON.stringify(value)}\n`);
}

function linesOf(io: CliIo, texts: Iterable<string>): void {
  let chunk = '';
  for (const text of texts) {
    chunk += `${text}\n`;
    if (chunk.length > 1 << 16) {
      io.stdout(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') io.stdout(chunk);
}

export async function exportCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('export', args, { db: { type: 'string' }, collection: { type: 'string' } });
  const file = required('export', 'db', values.db);
  const collection = values.collection ?? 'tasks';
  if (!isCollectionName(collection) || !EXPORTABLE.includes(collection)) {
    throw new UsageError(`export: unknown --collection '${collection}'; use one of ${EXPORTABLE.join(', ')}`);
  }
  await withMirror('export', file, true, (mirror) => {
    if (collection === 'tasks') {
      linesOf(io, mirror.tasks.exportJson());
      return;
    }
    linesOf(io, mirror.collections.json(collection));
  });
  return EXIT.ok;
}

export async function editCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('edit', args, {
    db: { type: 'string' },
    task: { type: 'string' },
    where: { type: 'string', multiple: true },
    set: { type: 'string', multiple: true },
    'add-tag': { type: 'string', multiple: true },
    'remove-tag': { type: 'string', multiple: true },
    yes: { type: 'boolean' },
  });
  const file = required('edit', 'db', values.db);
  const patch = parseSetValues(values.set ?? []);
  if (values.where !== undefined) {
    if (values.task !== undefined) throw new UsageError('edit: give --task or --where, not both');
    return editWhere(file, values.where, patch, values, io);
  }
  const taskId = required('edit', 'task', values.task);
  if (Object.keys(patch).length === 0) throw new UsageError('edit: give at least one --set field=value');
  return withMirror('edit', file, false, (mirror) => {
    const queued = mirror.tasks.edit(taskId, patch);
    line(io, { task_id: taskId, op_id: queued?.opId ?? null, queued: queued !== null });
    return EXIT.ok;
  });
}

/** `--where key=value` as the task list's query pairs (`filter[key]=value`): the app's filter vocabulary. */
function wherePairs(conditions: readonly string[]): [string, string][] {
  const pairs: [string, string][] = conditions.map((condition) => {
    const at = condition.indexOf('=');
    if (at <= 0)
      throw new UsageError(`edit: --where ${condition}: write it as key=value, e.g. --where status=blocked`);
    return [`filter[${condition.slice(0, at).trim()}]`, condition.slice(at + 1)];
  });
  try {
    normalizeTaskQuery(pairs);
  } catch (error) {
    if (error instanceof InvalidParameterError) throw new UsageError(`edit: --where: ${error.message}`);
    throw error;
  }
  return pairs;
}

/**
 * `edit --where key=value … --set field=value …`: every task the filters
 * match, changed as one bulk change (as a selection in the app is). Prints
 * the count first and asks; `--yes` goes on without asking.
 */
async function editWhere(
  file: string,
  conditions: readonly string[],
  set: Record<string, unknown>,
  values: { 'add-tag'?: string[]; 'remove-tag'?: string[]; yes?: boolean },
  io: CliIo,
): Promise<ExitCode> {
  const query = wherePairs(conditions);
  const change: BulkTaskChange = {
    kind: 'edit',
    set,
    addTags: values['add-tag'] ?? [],
    removeTags: values['remove-tag'] ?? [],
  };
  if (Object.keys(set).length === 0 && change.addTags.length === 0 && change.removeTags.length === 0)
    throw new UsageError('edit: give at least one --set field=value, --add-tag or --remove-tag');
  return withMirror('edit', file, false, async (mirror) => {
    const options = {
      me: mirror.identity.account().username ?? '',
      today: new Date().toISOString().slice(0, 10),
    };
    const matched = mirror.tasks.count(query, options);
    line(io, { matched });
    if (matched === 0) return EXIT.ok;
    if (values.yes !== true) {
      io.stderr(`Change ${matched === 1 ? '1 task' : `${matched} tasks`}? [y/N] `);
      const answer = (await io.readLine?.()) ?? null;
      if (answer === null || !/^y(es)?$/i.test(answer.trim())) {
        io.stderr('Nothing changed (answer y to go on, or pass --yes).\n');
        line(io, { batch_id: null, queued: 0 });
        return EXIT.ok;
      }
    }
    const outcome = await queueBulkChange(mirror, { query, except: [] }, change, options);
    line(io, {
      batch_id: outcome.batchId,
      matched: outcome.matched,
      queued: outcome.queued,
      unchanged: outcome.unchanged,
    });
    return EXIT.ok;
  });
}

/** `delete --db FILE --task ID`: queues the delete as the app does; a task never sent cancels with its create. */
export async function deleteCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('delete', args, { db: { type: 'string' }, task: { type: 'string' } });
  const file = required('delete', 'db', values.db);
  const taskId = required('delete', 'task', values.task);
  return withMirror('delete', file, false, (mirror) => {
    const queued = mirror.tasks.delete(taskId);
    line(io, { task_id: taskId, op_id: queued?.opId ?? null, queued: queued !== null });
    return EXIT.ok;
  });
}

export async function createCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('create', args, {
    db: { type: 'string' },
    set: { type: 'string', multiple: true },
  });
  const file = required('create', 'db', values.db);
  const fields = parseSetValues(values.set ?? []);
  if (typeof fields.title !== 'string') throw new UsageError('create: --set title=TEXT is required');
  return withMirror('create', file, false, (mirror) => {
    const created = mirror.tasks.create(fields);
    line(io, { task_id: created.taskId, op_id: created.opId, queued: true });
    return EXIT.ok;
  });
}

/**
 * An operation as one NDJSON line (the outbox's own field names, and its state's
 * words as the app says them, protocol/change-state-words); `names` tells
 * what the ids among its values point at, by id (db/referenced-names), when any is known;
 * `waitsOn`, the stopped change it is held behind (db/outbox/outbox-waits), told in its words.
 */
export function outboxLine(
  op: OutboxOp,
  names?: ReferenceNames,
  waitsOn: WaitsOn | null = null,
): Record<string, unknown> {
  const named =
    names === undefined
      ? undefined
      : namesIn(
          [...new Set([...Object.keys(op.patch), ...Object.keys(op.baseValues)])].map((field) => ({
            field,
            values: [op.baseValues[field], op.patch[field]],
          })),
          names,
          op.entityType === 'comment' ? op.parentId : null,
        );
  const refused = op.state === 'failed' ? refusedFields(op.lastProblem) : [];
  return {
    op_id: op.opId,
    seq: op.seq,
    entity_type: op.entityType,
    entity_id: op.entityId,
    kind: op.kind,
    state: op.state,
    // The state in the app's words (its inspector, marks and status bar say the same).
    state_words:
      op.state === 'done'
        ? null
        : waitsOn !== null
          ? waitingWords(waitsOn)
          : changeStateWords(op.state, `${op.entityType}s`),
    waits_on: waitsOn === null ? null : waitsOnFields(waitsOn),
    patch: op.patch,
    base_etag: op.baseEtag,
    base_values: op.baseValues,
    attempts: op.attempts,
    last_problem: op.lastProblem,
    created_at: op.createdAt,
    updated_at: op.updatedAt,
    ...(named === undefined ? {} : { names: named }),
    ...(refused.length === 0
      ? {}
      : {
          retry_without: refused,
          hint: `the service refused ${refused.join(', ')}; send it without: retry --db FILE --op ${op.opId} ${refused.map((field) => `--set ${field}=null`).join(' ')}`,
        }),
  };
}

/**
 * The fields a 422 named, so that a refused change is offered to be sent
 * without them, never left a dead end.
 */
function refusedFields(problem: unknown): string[] {
  const answer = problem as { status?: unknown; errors?: unknown } | null;
  return answer?.status === 422 && Array.isArray(answer.errors) ? refusedBodyFields(answer.errors) : [];
}

/**
 * A conflict as one NDJSON line. `field` "*" means the task was deleted on the
 * server; `names` as in an operation's; `left_out`, for such a task, what taking
 * mine re-creates it without (references the person can no longer use), in words.
 */
export function conflictLine(
  conflict: Conflict,
  names?: ReferenceNames,
  leftOut?: readonly { field: string; id: string; message: string }[],
): Record<string, unknown> {
  const named =
    names === undefined
      ? undefined
      : namesIn([{ field: conflict.field, values: [conflict.base, conflict.mine, conflict.theirs] }], names);
  return {
    conflict_id: conflict.conflictId,
    op_id: conflict.opId,
    entity_type: conflict.entityType,
    entity_id: conflict.entityId,
    field: conflict.field,
    base: conflict.base,
    mine: conflict.mine,
    theirs: conflict.theirs,
    theirs_etag: conflict.theirsEtag,
    state: conflict.state,
    resolution: conflict.resolution,
    created_at: conflict.createdAt,
    resolved_at: conflict.resolvedAt,
    ...(named === undefined ? {} : { names: named }),
    ...(leftOut === undefined || leftOut.length === 0 ? {} : { left_out: leftOut }),
  };
}

export async function outboxCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('outbox', args, { db: { type: 'string' } });
  const file = required('outbox', 'db', values.db);
  await withMirror('outbox', file, true, (mirror) => {
    const ops = mirror.outbox.list(UNSETTLED_STATES);
    const names = referenceNames(mirror);
    const waits = waitsOnOf(mirror, ops);
    linesOf(
      io,
      ops.map((op) => JSON.stringify(outboxLine(op, names, waits.get(op.opId) ?? null))),
    );
  });
  return EXIT.ok;
}

export async function conflictsCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('conflicts', args, { db: { type: 'string' } });
  const file = required('conflicts', 'db', values.db);
  await withMirror('conflicts', file, true, (mirror) => {
    const names = referenceNames(mirror);
    linesOf(
      io,
      mirror.outbox
        .conflicts('open')
        .map((conflict) => JSON.stringify(conflictLine(conflict, names, leftOutOf(mirror, conflict, names)))),
    );
  });
  return EXIT.ok;
}

/** What "mine" on a task deleted on the server re-creates it without, in words (db/recreate-references). */
function leftOutOf(mirror: Mirror, conflict: Conflict, names: ReferenceNames) {
  if (conflict.field !== DELETED_REMOTELY || conflict.entityType !== 'task') return undefined;
  return mirror.tasks.leftOutOnRecreate(conflict.entityId).map((reference) => ({
    field: reference.field,
    id: reference.id,
    message: leftOutWords(reference, names(reference.field, reference.id)),
  }));
}

export async function resolveCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('resolve', args, {
    db: { type: 'string' },
    conflict: { type: 'string' },
    take: { type: 'string' },
  });
  const file = required('resolve', 'db', values.db);
  const conflictId = required('resolve', 'conflict', values.conflict);
  const take = required('resolve', 'take', values.take);
  if (take !== 'mine' && take !== 'theirs') {
    throw new UsageError(`resolve: --take must be mine or theirs, not '${take}'`);
  }
  return withMirror('resolve', file, false, (mirror) =>
    asUsage('resolve', `list open ones with: conflicts --db ${file}`, () => {
      resolveConflicts(mirror, null, [{ conflictId, resolution: { take } }]);
      line(io, conflictLine(mirror.outbox.conflicts().find((c) => c.conflictId === conflictId) as Conflict));
      return EXIT.ok;
    }),
  );
}

/** The outbox's refusals of an action, told as usage errors with a hint of what to look at. */
function asUsage<T>(command: string, hint: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof OutboxReviewError) throw new UsageError(`${command}: ${error.message} (${hint})`);
    throw error;
  }
}

export async function retryCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('retry', args, {
    db: { type: 'string' },
    op: { type: 'string' },
    set: { type: 'string', multiple: true },
  });
  const file = required('retry', 'db', values.db);
  const opId = required('retry', 'op', values.op);
  const assignments = values.set ?? [];
  return withMirror('retry', file, false, (mirror) =>
    asUsage('retry', `see outbox --db ${file}`, () => {
      // A task's --set follows the task rules; another kind's, the fields a person may correct in it.
      const { entityType } = mirror.outbox.op(opId);
      const patch =
        entityType === 'task'
          ? parseSetValues(assignments)
          : parseKindSetValues(assignments, RETRY_FIELDS[entityType] ?? []);
      const newId = retryOperation(mirror, opId, patch);
      // Retried behind another change still stopped, it says so rather than that it goes with the next sync.
      const waits = waitsOnOf(mirror, mirror.outbox.list(UNSETTLED_STATES));
      line(io, outboxLine(mirror.outbox.op(newId), undefined, waits.get(newId) ?? null));
      return EXIT.ok;
    }),
  );
}

export async function dropCommand(args: readonly string[], io: CliIo): Promise<ExitCode> {
  const values = parseOptions('drop', args, { db: { type: 'string' }, op: { type: 'string' } });
  const file = required('drop', 'db', values.db);
  const opId = required('drop', 'op', values.op);
  return withMirror('drop', file, false, (mirror) =>
    asUsage('drop', `see outbox --db ${file}`, () => {
      discardOperation(mirror, opId);
      line(io, { op_id: opId, dropped: true });
      return EXIT.ok;
    }),
  );
}

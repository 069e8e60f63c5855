// `sprint|goal|milestone|view create|edit|delete` and `pin add|move|remove`:
// queue a person's new sprint, goal, milestone, saved view or view pin, or
// their edit or delete of one, in the mirror's outbox without network, as the
// app does through mirror.writesOf(kind); the next sync sends it. One NDJSON
// line on stdout, as `section` prints.
import { resolve } from 'node:path';
import {
  createFieldsOf,
  endingVerb,
  isDeletable,
  requiredCreateFieldsOf,
  updateFieldsOf,
  type WritableKind,
} from '../../protocol/writable-kind';
import { COLLECTION_KINDS } from '../../protocol/writable-kinds';
import type { CollectionWrites } from '../../db/collections/collection-writes';
import type { Mirror } from '../../db/mirror';
import { EXIT, type ExitCode, UsageError } from './cli-usage';
import type { CliIo } from './cli-io';
import { line, parseOptions, required, withMirror } from './mirror-commands';
import { type StoredLogin, readStoredLogin } from './login-command';
import { parseKindSetValues } from './set-values';
import { refusedWrite } from './write-scopes';

/** What a kind's verbs are called on the command line (a pin is added, moved and removed). */
interface CommandVerbs {
  create: string;
  edit: string;
  delete: string;
}

const DEFAULT_VERBS: CommandVerbs = { create: 'create', edit: 'edit', delete: 'delete' };

/** Kinds whose command is not named after their entity type, or whose verbs say what they do to it. */
const COMMAND_NAMES: Readonly<Record<string, { noun: string; verbs: CommandVerbs }>> = {
  view_pin: { noun: 'pin', verbs: { create: 'add', edit: 'move', delete: 'remove' } },
  // Its `add` is an upload (attachment-command.ts); the rename and delete are here.
  attachment: { noun: 'attachment', verbs: { create: 'add', edit: 'rename', delete: 'delete' } },
};

export interface CollectionCommandSpec {
  /** The command's name (`sprint`, `pin`); also the option naming the one edited (`--pin ID`). */
  noun: string;
  /** The outbox's entity type (`view_pin`): whose scope a write needs. */
  entityType: string;
  verbs: CommandVerbs;
  idField: string;
  /** The parent its routes need, set on create (a sprint's team, a goal's or milestone's project); null: none (views, pins). */
  parentField: string | null;
  /** Fields a create must set (besides the parent). */
  requiredOnCreate: readonly string[];
  createFields: readonly string[];
  editFields: readonly string[];
  /** The service deletes it (sprints: no). */
  deletable: boolean;
  /** Without a delete, how one is ended instead ("complete it with --set status=completed"). */
  endingHint: string;
  writes(mirror: Mirror): CollectionWrites;
}

/** A kind's command from its descriptor: its fields are its body schemas', its verbs follow its delete. */
function commandSpecOf(kind: WritableKind): CollectionCommandSpec {
  const named = COMMAND_NAMES[kind.entityType];
  return {
    noun: named?.noun ?? kind.entityType,
    entityType: kind.entityType,
    verbs: named?.verbs ?? DEFAULT_VERBS,
    idField: kind.idField,
    parentField: kind.parentField,
    requiredOnCreate: requiredCreateFieldsOf(kind),
    createFields: createFieldsOf(kind),
    editFields: updateFieldsOf(kind),
    deletable: isDeletable(kind),
    endingHint: `${endingVerb(kind)} it with --set status=${kind.endedBy?.status ?? ''}`,
    writes: (mirror) => {
      const writes = mirror.writesOf(kind.entityType);
      if (writes === null) throw new Error(`no writes of ${kind.collection} in the mirror`);
      return writes;
    },
  };
}

/**
 * The commands of the collection kinds by their noun (`sprint`, `goal`,
 * `milestone`, `view`, `pin`); sections, created in a scope their body names,
 * have their own (comment-command.ts).
 */
export const COLLECTION_COMMAND_SPECS: ReadonlyMap<string, CollectionCommandSpec> = new Map(
  COLLECTION_KINDS.filter((kind) => kind.entityType !== 'section').map((kind) => {
    const spec = commandSpecOf(kind);
    return [spec.noun, spec] as const;
  }),
);

/** The command for one kind (run-cli's table). */
export function collectionCommand(spec: CollectionCommandSpec) {
  return (args: readonly string[], io: CliIo): Promise<ExitCode> => run(spec, args, io);
}

async function run(spec: CollectionCommandSpec, args: readonly string[], io: CliIo): Promise<ExitCode> {
  const [verb, ...rest] = args;
  const { verbs } = spec;
  const offered = spec.deletable ? [verbs.create, verbs.edit, verbs.delete] : [verbs.create, verbs.edit];
  const command = `${spec.noun} ${verb ?? ''}`.trim();
  if (verb === verbs.create) {
    const values = parseOptions(command, rest, {
      db: { type: 'string' },
      set: { type: 'string', multiple: true },
    });
    const file = required(command, 'db', values.db);
    const parentField = spec.parentField;
    const fields = parseKindSetValues(values.set ?? [], [
      ...(parentField === null ? [] : [parentField]),
      ...spec.createFields,
    ]);
    for (const field of [...(parentField === null ? [] : [parentField]), ...spec.requiredOnCreate]) {
      if (fields[field] === undefined || fields[field] === null)
        throw new UsageError(
          `${command}: --set ${field}=${field === 'position' ? 'NUMBER' : 'TEXT'} is required`,
        );
    }
    const { [parentField ?? '']: parent, ...body } = fields;
    const login = await readStoredLogin(resolve(file));
    return withMirror(command, file, false, (mirror) => {
      if (refusedToQueue(command, file, login, mirror, spec, io)) return EXIT.failed;
      const created = spec.writes(mirror).create(body, parentField === null ? null : (parent as string));
      line(io, { [spec.idField]: created.id, op_id: created.opId, queued: true });
      return EXIT.ok;
    });
  }
  if (verb === verbs.edit || (verb === verbs.delete && spec.deletable)) {
    const values = parseOptions(command, rest, {
      db: { type: 'string' },
      [spec.noun]: { type: 'string' },
      set: { type: 'string', multiple: true },
    });
    const file = required(command, 'db', values.db);
    const id = required(command, spec.noun, values[spec.noun] as string | undefined);
    const set = values.set ?? [];
    if (verb === verbs.delete && set.length > 0) throw new UsageError(`${command}: takes no --set`);
    const patch = parseKindSetValues(set, spec.editFields);
    if (verb === verbs.edit && Object.keys(patch).length === 0)
      throw new UsageError(`${command}: give at least one --set of ${spec.editFields.join(', ')}`);
    const login = await readStoredLogin(resolve(file));
    return withMirror(command, file, false, (mirror) => {
      if (refusedToQueue(command, file, login, mirror, spec, io)) return EXIT.failed;
      const writes = spec.writes(mirror);
      const queued = verb === verbs.edit ? writes.edit(id, patch) : writes.delete(id);
      line(io, { [spec.idField]: id, op_id: queued?.opId ?? null, queued: queued !== null });
      return EXIT.ok;
    });
  }
  const hint = verb === verbs.delete ? ` (the service has no ${spec.noun} delete; ${spec.endingHint})` : '';
  throw new UsageError(
    `${spec.noun}: give one of ${offered.join(', ')}${verb === undefined ? '' : `, not '${verb}'`}${hint}`,
  );
}

/** Says in one line why the write is not queued, when the sign-in may not make it; true then. */
export function refusedToQueue(
  command: string,
  file: string,
  login: StoredLogin | null,
  mirror: Mirror,
  spec: Pick<CollectionCommandSpec, 'noun' | 'entityType'>,
  io: CliIo,
): boolean {
  const refusal = refusedWrite(login, mirror, spec.entityType);
  if (refusal === null) return false;
  io.stderr(
    `${command}: this sign-in may not change ${spec.noun}s (${refusal.why}); nothing was queued. ` +
      `Sign in again allowing ${refusal.scope}: login --db ${file}\n`,
  );
  return true;
}

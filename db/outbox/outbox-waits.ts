// Which stopped change a waiting change is held behind (issue 21, defect 2): the
// outbox sends nothing that names a temporary id before that id's create is
// accepted, nor an edit before the earlier changes of its resource (Outbox.ready),
// so when that create or earlier change stopped (read-only, refused, in conflict)
// the change behind it will not go until the person settles that one. Every view
// (inspector, row marks, the headless `outbox`) tells it from here.
import type { Mirror } from '../mirror';
import { isTemporaryId, type OutboxKind, type OutboxOp, type OutboxState } from './outbox-types';
import { textOf } from '../../protocol/wire-fields';

/** The states of a change that waits for the person, not for the network. */
export type StoppedState = 'conflict' | 'failed' | 'blocked';

/** The stopped change another is held behind. */
export interface WaitsOn {
  opId: string;
  kind: OutboxKind;
  entityType: string;
  entityId: string;
  /** What it is to, as the person named it (a sprint's name, a task's title); null when unknown. */
  name: string | null;
  state: StoppedState;
}

function isStopped(state: OutboxState): state is StoppedState {
  return state === 'conflict' || state === 'failed' || state === 'blocked';
}

/** The temporary ids an operation names besides its own resource's: its parent's and its values'. */
function referencedTemporaryIds(op: OutboxOp): string[] {
  const ids = Object.values(op.patch).filter(
    (value): value is string => isTemporaryId(value) && value !== op.entityId,
  );
  if (isTemporaryId(op.parentId) && op.parentId !== null) ids.push(op.parentId);
  return ids;
}

/**
 * For each queued operation held behind a stopped one, that stopped operation,
 * by the queued one's id. `ops`: the unsettled operations, oldest first (one
 * read of the outbox; no query per operation). A queued or in-flight change
 * ahead is the outbox's ordinary order, not a wait to tell: it goes on its own.
 * Through a chain (a comment on a task created here, filed into a sprint whose
 * create is read-only) the change named is the first the person must settle.
 * A stopped operation itself is not listed: its own state says what holds it.
 */
export function stoppedAhead(ops: readonly OutboxOp[]): Map<string, OutboxOp> {
  const createOf = new Map<string, OutboxOp>();
  const earlierOf = new Map<OutboxOp, OutboxOp>();
  const lastOfEntity = new Map<string, OutboxOp>();
  for (const op of ops) {
    if (op.kind === 'create' && isTemporaryId(op.entityId)) createOf.set(op.entityId, op);
    const entity = `${op.entityType}\u0000${op.entityId}`;
    const last = lastOfEntity.get(entity);
    if (last !== undefined) earlierOf.set(op, last);
    lastOfEntity.set(entity, op);
  }

  const memo = new Map<OutboxOp, OutboxOp | null>();
  const visiting = new Set<OutboxOp>();
  /** The stopped operation `op` waits behind, wherever it is in the chain; null when none. */
  const behind = (op: OutboxOp): OutboxOp | null => {
    const known = memo.get(op);
    if (known !== undefined) return known;
    if (visiting.has(op)) return null;
    visiting.add(op);
    const ahead = [earlierOf.get(op), ...referencedTemporaryIds(op).map((id) => createOf.get(id))].filter(
      (other): other is OutboxOp => other !== undefined && other !== op,
    );
    let found: OutboxOp | null = null;
    for (const other of ahead) {
      // A stopped change that itself waits behind another: that other one is the first to settle.
      found = behind(other) ?? (isStopped(other.state) ? other : null);
      if (found !== null) break;
    }
    visiting.delete(op);
    memo.set(op, found);
    return found;
  };

  const held = new Map<string, OutboxOp>();
  for (const op of ops) {
    if (op.state !== 'queued') continue;
    const stopped = behind(op);
    if (stopped !== null) held.set(op.opId, stopped);
  }
  return held;
}

/** A name as text: an empty one is no name. */
function text(value: unknown): string | null {
  return textOf(value) || null;
}

/** A stopped operation's resource as the person named it: its create's name or title, else the mirror's. */
function nameOf(mirror: Mirror, op: OutboxOp): string | null {
  const own = text(op.patch.name) ?? text(op.patch.title);
  if (own !== null) return own;
  if (op.entityType === 'task') {
    const task = mirror.tasks.get(op.entityId);
    return text(task?.task.title) ?? text(task?.server?.title);
  }
  return text(mirror.writesOf(op.entityType)?.get(op.entityId)?.name) ?? text(op.baseValues.name);
}

/** {@link stoppedAhead} with what each stopped change is to, named (a lookup per stopped change, not per op). */
export function waitsOnOf(mirror: Mirror, ops: readonly OutboxOp[]): Map<string, WaitsOn> {
  const named = new Map<OutboxOp, WaitsOn>();
  const out = new Map<string, WaitsOn>();
  for (const [opId, stopped] of stoppedAhead(ops)) {
    let waits = named.get(stopped);
    if (waits === undefined) {
      waits = {
        opId: stopped.opId,
        kind: stopped.kind,
        entityType: stopped.entityType,
        entityId: stopped.entityId,
        name: nameOf(mirror, stopped),
        state: stopped.state as StoppedState,
      };
      named.set(stopped, waits);
    }
    out.set(opId, waits);
  }
  return out;
}

/** The fields the app's calls and the headless `outbox` carry of it, named as the wire names fields. */
export interface WaitsOnFields {
  op_id: string;
  kind: OutboxKind;
  entity_type: string;
  entity_id: string;
  name: string | null;
  state: StoppedState;
}

export function waitsOnFields(waits: WaitsOn): WaitsOnFields {
  return {
    op_id: waits.opId,
    kind: waits.kind,
    entity_type: waits.entityType,
    entity_id: waits.entityId,
    name: waits.name,
    state: waits.state,
  };
}

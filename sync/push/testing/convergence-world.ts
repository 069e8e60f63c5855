// The convergence property's world, shared by the property test and its run
// against the emulator's variance mode: random interleavings of local edits and
// creates, the peer's edits, creates and deletes, and injected faults; then sync
// until quiet and check that mirror and server agree and nothing was lost.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { expect } from 'vitest';
import type { Mirror } from '../../../db/mirror';
import { NotInMirrorError } from '../../../db/mirror-errors';
import { openMirror } from '../../../db/open-mirror';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../emulator/start';
import { ApiClient } from '../../api/api-client';
import { staticCredentials } from '../../api/credentials';
import { SyncEngine } from '../../engine/sync-engine';
import { type JsonValue, sameValue } from '../../merge/three-way-merge';
import { TASK_PRIORITIES, TASK_STATUSES } from '../../../protocol/task';
import { MirrorPullStore } from '../../pull/mirror-pull-store';
import { FAST_RETRY } from './push-fixture';

/** Collections a sync could not complete, where the summary names them. */
export function failedCollections(summary: object): unknown[] {
  return 'failed_collections' in summary && Array.isArray(summary.failed_collections)
    ? (summary.failed_collections as unknown[])
    : [];
}

export type Field = 'title' | 'description' | 'priority' | 'status' | 'tags';

export type Action =
  | { kind: 'local-edit'; task: number; field: Field; pick: number }
  | { kind: 'local-create' }
  | { kind: 'peer-edit'; task: number; field: Field; pick: number }
  | { kind: 'peer-create' }
  | { kind: 'peer-delete'; task: number }
  | {
      kind: 'fault';
      fault: 'drop' | 'server-error' | 'rate-limit';
      method: 'GET' | 'PATCH' | 'POST';
      count: number;
    }
  | { kind: 'push' }
  | { kind: 'sync' };

const FIELDS: readonly Field[] = ['title', 'description', 'priority', 'status', 'tags'];
const TAG_POOL = ['red', 'green', 'blue'];

export const actionArbitrary: fc.Arbitrary<Action> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('local-edit' as const),
      task: fc.nat(20),
      field: fc.constantFrom(...FIELDS),
      pick: fc.nat(7),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('local-create' as const) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('peer-edit' as const),
      task: fc.nat(20),
      field: fc.constantFrom(...FIELDS),
      pick: fc.nat(7),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('peer-create' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('peer-delete' as const), task: fc.nat(20) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      fault: fc.constantFrom('drop' as const, 'server-error' as const, 'rate-limit' as const),
      method: fc.constantFrom('GET' as const, 'PATCH' as const, 'POST' as const),
      count: fc.integer({ min: 1, max: 2 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('push' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('sync' as const) }) },
);

/** A task the actions can name: its id now (a temporary id becomes the server's). */
export interface Handle {
  id: string;
}

export interface World {
  emulator: RunningEmulator;
  mirror: Mirror;
  api: ApiClient;
  engine: SyncEngine;
  handles: Handle[];
  /** The person's last value per task handle and field (what must reach the server). */
  intents: Map<Handle, Map<Field, JsonValue>>;
  /** Values each field had (server copy, or the person's own) when the person edited it. */
  seen: Map<Handle, Map<Field, JsonValue[]>>;
  localCreates: number;
  peerCreates: number;
  /** When the actions began (ISO), to tell this run's history from the seeded one. */
  startedAt: string;
  counter: number;
  /** What each sync or push threw (faults may make them fail; a conforming answer never should). */
  errors: unknown[];
  /**
   * Variance mode: `id field old-value` of each write that replaced a value the version it replaced
   * sent absent or null (the person could not have seen it; the write was still conditional on it).
   */
  hiddenOverwrites: Set<string>;
}

const overwriteKey = (id: string, field: string, old: unknown) =>
  `${id}\u0000${field}\u0000${JSON.stringify(old)}`;

/**
 * The value an action writes. Texts are unique per writer (a lost local title
 * can never be mistaken for the peer's); enums and tags come from small pools,
 * so both sides often pick the same value (the settled case) or different ones.
 */
function valueOf(world: World, who: 'mine' | 'peer', field: Field, pick: number): JsonValue {
  switch (field) {
    case 'title':
    case 'description':
      world.counter += 1;
      return `${who} ${field} ${world.counter}`;
    case 'priority':
      return TASK_PRIORITIES[pick % TASK_PRIORITIES.length] as string;
    case 'status':
      return TASK_STATUSES[pick % TASK_STATUSES.length] as string;
    case 'tags':
      return TAG_POOL.filter((_, i) => (pick >> i) & 1);
  }
}

const isTemporary = (id: string) => id.startsWith('local-');

async function apply(world: World, action: Action): Promise<void> {
  const { emulator, mirror, handles } = world;
  const handle = 'task' in action ? handles[action.task % handles.length] : undefined;
  switch (action.kind) {
    case 'local-edit': {
      if (!handle) return;
      const value = valueOf(world, 'mine', action.field, action.pick);
      const before = mirror.tasks.get(handle.id)?.server?.[action.field];
      const seen = world.seen.get(handle) ?? new Map<Field, JsonValue[]>();
      seen.set(action.field, [...(seen.get(action.field) ?? []), (before ?? null) as JsonValue, value]);
      world.seen.set(handle, seen);
      let queued: { opId: string } | null;
      try {
        queued = mirror.tasks.edit(handle.id, { [action.field]: value });
      } catch (error) {
        if (error instanceof NotInMirrorError) return; // deleted, or not pulled yet: no edit was made
        throw error;
      }
      const intents = world.intents.get(handle) ?? new Map<Field, JsonValue>();
      const earlier = intents.get(action.field);
      // Nothing queued: the field already shows this value (a pending edit of mine, or the server's).
      if (queued !== null || (earlier !== undefined && sameValue(earlier, value, action.field === 'tags'))) {
        intents.set(action.field, value);
      } else {
        intents.delete(action.field);
      }
      world.intents.set(handle, intents);
      return;
    }
    case 'local-create': {
      world.counter += 1;
      const created = mirror.tasks.create({ title: `mine created ${world.counter}` });
      const handle: Handle = { id: created.taskId };
      handles.push(handle);
      world.intents.set(handle, new Map([['title', `mine created ${world.counter}`]]));
      world.localCreates += 1;
      return;
    }
    case 'peer-edit':
      if (!handle || isTemporary(handle.id) || !emulator.control.task(handle.id)) return;
      emulator.control.peerEdit(handle.id, {
        [action.field]: valueOf(world, 'peer', action.field, action.pick),
      });
      return;
    case 'peer-create': {
      world.counter += 1;
      const task = emulator.control.peerCreate({ title: `peer created ${world.counter}` });
      handles.push({ id: task.task_id });
      world.peerCreates += 1;
      return;
    }
    case 'peer-delete':
      if (!handle || isTemporary(handle.id) || !emulator.control.task(handle.id)) return;
      emulator.control.peerDelete(handle.id);
      return;
    case 'fault': {
      const faults = emulator.control.faults;
      const scope = { method: action.method, pathPrefix: '/v1/' };
      if (action.fault === 'drop') {
        // One dropped create answer at a time: the emulator re-runs a create whose replayed answer is dropped too.
        const pendingPostDrop = faults
          .snapshot()
          .counted.some((c) => c.kind === 'drop-connection' && c.method === 'POST');
        if (action.method === 'POST' && pendingPostDrop) return;
        faults.dropConnections(action.method === 'POST' ? 1 : action.count, scope);
      } else if (action.fault === 'server-error') {
        faults.serverErrors(action.count, scope);
      } else {
        faults.rateLimitBurst(action.count, { ...scope, retryAfterSeconds: 0 });
      }
      return;
    }
    case 'push':
      await world.engine.pushOnce().catch((error: unknown) => void world.errors.push(error)); // offline or flaky: the outbox keeps everything
      return;
    case 'sync':
      await world.engine.syncOnce().catch((error: unknown) => void world.errors.push(error));
      return;
  }
}

/** Sync until a pass pushes nothing and pulls no change. */
export async function settle(world: World): Promise<void> {
  world.emulator.control.faults.clear();
  world.emulator.control.variance?.setFaults(false);
  for (let round = 0; round < 8; round++) {
    const summary = await world.engine.syncOnce();
    if (summary.pushed === 0 && summary.changes === 0 && failedCollections(summary).length === 0) return;
  }
  throw new Error('sync did not become quiet in 8 passes');
}

export function check(world: World): void {
  const { emulator, mirror } = world;
  const ops = mirror.outbox.list(['queued', 'in_flight', 'conflict', 'failed', 'blocked']);
  const inConflict = new Set(ops.filter((op) => op.state === 'conflict').map((op) => op.entityId));
  // Everything settled, or waits in (or behind) a conflict.
  expect(ops.filter((op) => !inConflict.has(op.entityId))).toEqual([]);
  expect(new Set(mirror.outbox.conflicts('open').map((c) => c.entityId))).toEqual(inConflict);

  // No create happened twice, and every local create reached the server.
  expect(emulator.control.creates().tasks).toBe(world.localCreates + world.peerCreates);
  for (const handle of world.handles) expect(isTemporary(handle.id), handle.id).toBe(false);

  // Every task in the mirror equals the server's where no conflict is open.
  const local = new Map(
    [...mirror.tasks.exportJson()]
      .map((json) => JSON.parse(json) as Record<string, unknown>)
      .map((task) => [task.task_id as string, task]),
  );
  const server = new Map(emulator.control.tasks().map((task) => [task.task_id, task]));
  // What the server sends (variance mode renders a version with its liberties) is what the mirror keeps.
  const sent: Map<string, unknown> = emulator.control.variance
    ? new Map(emulator.control.servedTasks().map((task) => [String(task.task_id), task]))
    : server;
  const outside = (ids: Iterable<string>) => [...ids].filter((id) => !inConflict.has(id)).sort();
  expect(outside(local.keys())).toEqual(outside(server.keys()));
  for (const id of outside(local.keys())) expect(local.get(id), id).toEqual(sent.get(id));

  // The person's writes only ever replaced values they had seen: a 412 never turned into a blind overwrite.
  const byHandleId = new Map(world.handles.map((handle) => [handle.id, handle]));
  for (const id of server.keys()) {
    const handle = byHandleId.get(id);
    for (const entry of emulator.control.history(id)) {
      // Only what this run wrote (the seeded history has entries by the same member).
      if (entry.action !== 'updated' || entry.created_by !== emulator.me.username) continue;
      if ((entry.created_at ?? '') < world.startedAt) continue;
      for (const change of entry.metadata ?? []) {
        const field = change.field as Field;
        const seenValues = (handle && world.seen.get(handle)?.get(field)) ?? [];
        const known =
          seenValues.some((value) => sameValue(value, change.old as JsonValue, field === 'tags')) ||
          world.hiddenOverwrites.has(overwriteKey(id, field, change.old));
        expect(known, `${id}.${field}: wrote over ${JSON.stringify(change.old)}, never seen`).toBe(true);
      }
    }
  }

  // Every local edit is on the server (now, or in its history), or in an open conflict.
  for (const [handle, intents] of world.intents) {
    if (inConflict.has(handle.id)) continue;
    const history = emulator.control.history(handle.id);
    const current = server.get(handle.id) as Record<string, unknown> | undefined;
    for (const [field, value] of intents) {
      const asSet = field === 'tags';
      const landed =
        (current !== undefined && sameValue(current[field] as JsonValue, value, asSet)) ||
        history.some((entry) =>
          (entry.metadata ?? []).some(
            (change) => change.field === field && sameValue(change.new as JsonValue, value, asSet),
          ),
        );
      expect(landed, `${handle.id}.${field} = ${JSON.stringify(value)}`).toBe(true);
    }
  }
}

/** One run of the property: a fresh emulator and mirror, the actions, sync until quiet, the checks. */
export async function convergenceRun(
  actions: readonly Action[],
  emulatorOptions: EmulatorOptions,
  extraChecks: (world: World) => void = () => undefined,
): Promise<void> {
  const emulator = await startEmulator(emulatorOptions);
  const dir = await mkdtemp(join(tmpdir(), 'svc-converge-'));
  const mirror = await openMirror(join(dir, 'mirror.db'));
  const api = new ApiClient({
    baseUrl: emulator.baseUrl,
    credentials: staticCredentials(emulator.tokens.live),
    retry: FAST_RETRY,
  });
  try {
    mirror.identity.setAccount({ orgId: emulator.orgId, username: emulator.me.username });
    const handles: Handle[] = [];
    const engine = new SyncEngine({
      mirror,
      api,
      me: emulator.me,
      pullStore: new MirrorPullStore(mirror),
      onEvent: (event) => {
        if (event.type !== 'id-remapped') return;
        for (const handle of handles) if (handle.id === event.from) handle.id = event.to;
      },
    });
    const world: World = {
      emulator,
      mirror,
      api,
      engine,
      handles,
      intents: new Map(),
      seen: new Map(),
      localCreates: 0,
      peerCreates: 0,
      startedAt: new Date(emulator.control.clock.now()).toISOString(),
      counter: 0,
      errors: [],
      hiddenOverwrites: new Set(),
    };
    const { variance } = emulator.control;
    if (variance) {
      emulator.control.onTaskUpdate((before, after) => {
        const sent = emulator.control.serve(before);
        for (const [field, value] of Object.entries(before)) {
          const changed = !isDeepStrictEqual(value, (after as unknown as Record<string, unknown>)[field]);
          if (changed && value !== null && (sent[field] === undefined || sent[field] === null))
            world.hiddenOverwrites.add(overwriteKey(before.task_id, field, value));
        }
      });
    }
    if (emulator.control.variance)
      await engine.syncOnce().catch((error: unknown) => void world.errors.push(error));
    else await engine.syncOnce();
    handles.push(
      ...emulator.control
        .tasks()
        .map((task) => ({ id: task.task_id }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    );
    for (const action of actions) await apply(world, action);
    await settle(world);
    check(world);
    extraChecks(world);
  } finally {
    mirror.close();
    await api.close();
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

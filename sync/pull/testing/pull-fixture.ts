// A test bench for pulling: an emulator over real HTTP (optionally behind a
// relay that can corrupt answers), a mirror in a fresh SQLite file, an API
// client and a sync engine that records its events; `reopen` builds a new
// engine on the same file, as after a restart.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Mirror } from '../../../db/mirror';
import { openMirror, type OpenMirrorOptions } from '../../../db/open-mirror';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../emulator/start';
import type { ApiClient } from '../../api/api-client';
import { staticClients } from '../../api/testing/static-clients';
import { SyncEngine, type SyncEngineDeps } from '../../engine/sync-engine';
import type { SyncEvent } from '../../events/sync-events';
import { type RelayProxy, startRelayProxy } from './relay-proxy';

/** Quick retries: tests meet drops and 500s without waiting seconds. */
export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40, maxAttempts: 3 };

/** Quick restarts and collection retries, for the same reason. */
export const FAST_RUN_POLICY = { restartBaseMs: 5, restartMaxMs: 40, unitRetryBaseMs: 5, unitRetryMaxMs: 40 };

export interface PullFixture {
  emulator: RunningEmulator;
  relay: RelayProxy;
  file: string;
  mirror: Mirror;
  api: ApiClient;
  engine: SyncEngine;
  events: SyncEvent[];
  /** Closes the engine's mirror and client and opens new ones on the same file. */
  reopen(): Promise<void>;
  /** A client with another token (the peer's, to comment as someone else). */
  apiWith(token: string): ApiClient;
  /** Ids of the tasks in the mirror. */
  mirroredTaskIds(): string[];
  close(): Promise<void>;
}

export interface PullFixtureOptions extends EmulatorOptions {
  engine?: Partial<Omit<SyncEngineDeps, 'mirror' | 'api' | 'me' | 'onEvent'>>;
  /** How the engine's mirror is opened (the app's main thread: `checkpoints: 'another-connection'`). */
  mirror?: OpenMirrorOptions;
}

/**
 * For a file whose tests each start their own bench: returns `setUp`, which
 * starts one with the file's `defaults` under its options; it closes after each test.
 */
export function pullFixturePerTest(
  defaults: PullFixtureOptions = {},
): (options?: PullFixtureOptions) => Promise<PullFixture> {
  let fixture: PullFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });
  return async (options = {}) => (fixture = await startPullFixture({ ...defaults, ...options }));
}

/** The emulator's task ids, sorted: what a complete mirror of the list holds. */
export function serverTaskIds(f: PullFixture): string[] {
  return f.emulator.control
    .tasks()
    .map((t) => t.task_id)
    .sort();
}

/** Aborts the next pull once the whole task list's `pagesDone`th page is in; `done` stops listening. */
export function abortAtTaskPage(
  f: PullFixture,
  pagesDone: number,
): { signal: AbortSignal; done: () => void } {
  const stop = new AbortController();
  const done = f.engine.subscribe((event) => {
    if (
      event.type === 'progress' &&
      event.collection === 'tasks' &&
      event.scope === '' &&
      event.pagesDone === pagesDone
    )
      stop.abort();
  });
  return { signal: stop.signal, done };
}

export async function startPullFixture(options: PullFixtureOptions = {}): Promise<PullFixture> {
  const emulator = await startEmulator({ seedTasks: 2500, ...options });
  const relay = await startRelayProxy(emulator.baseUrl);
  const dir = await mkdtemp(join(tmpdir(), 'svc-pull-'));
  const file = join(dir, 'mirror.db');
  const clients = staticClients(relay.baseUrl, FAST_RETRY);
  const apiWith = (token: string): ApiClient => clients.withToken(token);
  const events: SyncEvent[] = [];
  const build = async () => {
    const mirror = await openMirror(file, options.mirror);
    const api = apiWith(emulator.tokens.live);
    const engine = new SyncEngine({
      mirror,
      api,
      me: emulator.me,
      onEvent: (event) => events.push(event),
      // Pages are applied in this thread unless a test asks for the worker: starting
      // a worker (tsx compiling the mirror) costs seconds. worker-pull-store.test.ts covers it.
      pullInWorker: false,
      pullRunPolicy: FAST_RUN_POLICY,
      ...options.engine,
    });
    return { mirror, api, engine };
  };
  const fixture: PullFixture = {
    emulator,
    relay,
    file,
    ...(await build()),
    events,
    async reopen() {
      await fixture.engine.close();
      fixture.mirror.close();
      Object.assign(fixture, await build());
    },
    apiWith,
    mirroredTaskIds() {
      return [...fixture.mirror.tasks.exportJson()].map(
        (json) => (JSON.parse(json) as { task_id: string }).task_id,
      );
    },
    async close() {
      await fixture.engine.close();
      await clients.closeAll();
      fixture.mirror.close();
      await relay.close();
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
  return fixture;
}

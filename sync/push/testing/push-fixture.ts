// A test bench for pushing: an emulator over real HTTP, a mirror in a fresh
// SQLite file, an API client and a pusher, plus the ways tests load tasks into
// the mirror (a single read with its ETag, or a list page without).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import type { Mirror } from '../../../db/mirror';
import { openMirror, type OpenMirrorOptions } from '../../../db/open-mirror';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../../emulator/start';
import type { ApiClient } from '../../api/api-client';
import { staticClients } from '../../api/testing/static-clients';
import { taskOperations } from '../../api/operations';
import type { SyncEvent } from '../../events/sync-events';
import { mirrorPushStore } from '../mirror-push-store';
import { Pusher } from '../pusher';

export interface PushFixture {
  emulator: RunningEmulator;
  dir: string;
  file: string;
  mirror: Mirror;
  api: ApiClient;
  pusher: Pusher;
  events: SyncEvent[];
  /** Reads tasks one by one (each with its ETag) into the mirror. */
  loadTasks(taskIds: readonly string[]): Promise<void>;
  /** Stores the first page of the task list (no per-task ETags, as a pull does). */
  loadListed(): Promise<void>;
  /** Ids of the first `count` seeded tasks the main member can read, in a stable order. */
  taskIds(count: number): string[];
  /** The ids taskIds gives, their tasks read into the mirror first (loadTasks). */
  loadedTaskIds(count: number): Promise<string[]>;
  /** A client with another token (read-only, narrow scopes, revoked...). */
  apiWith(token: string): ApiClient;
  close(): Promise<void>;
}

export interface PushFixtureOptions extends EmulatorOptions {
  /** Which of the emulator's tokens the pusher uses. Default live. */
  token?: 'live' | 'test';
  /** How the mirror is opened (the app's main thread: `checkpoints: 'another-connection'`). */
  mirror?: OpenMirrorOptions;
}

/** Quick retries: tests meet drops and 500s without waiting seconds. */
export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40 };

/**
 * For a file whose tests each start their own bench: returns the start to call
 * in a test, and closes what it started after each test (also when it failed).
 */
export function pushFixturePerTest(): (options?: PushFixtureOptions) => Promise<PushFixture> {
  let fixture: PushFixture | null = null;
  afterEach(async () => {
    await fixture?.close();
    fixture = null;
  });
  return async (options = {}) => (fixture = await startPushFixture(options));
}

export async function startPushFixture(options: PushFixtureOptions = {}): Promise<PushFixture> {
  const emulator = await startEmulator({ seedTasks: 12, ...options });
  const dir = await mkdtemp(join(tmpdir(), 'svc-push-'));
  const file = join(dir, 'mirror.db');
  const mirror = await openMirror(file, options.mirror);
  mirror.identity.setAccount({ orgId: emulator.orgId, username: emulator.me.username });
  const clients = staticClients(emulator.baseUrl, FAST_RETRY);
  const apiWith = (token: string): ApiClient => clients.withToken(token);
  const api = apiWith(emulator.tokens[options.token ?? 'live']);
  const events: SyncEvent[] = [];
  const pusher = new Pusher({ store: mirrorPushStore(mirror), api, onEvent: (event) => events.push(event) });
  const reader = apiWith(emulator.tokens.live);
  const loadTasks = async (ids: readonly string[]): Promise<void> => {
    for (const taskId of ids) {
      const answer = await reader.read(taskOperations.get, { taskId });
      if (answer.status !== 200) throw new Error(`tasks.get ${taskId} answered ${answer.status}`);
      mirror.tasks.applyServerCopy(answer.body, answer.etag);
    }
  };
  const taskIds = (count: number): string[] =>
    emulator.control
      .tasks()
      .map((task) => task.task_id)
      .sort()
      .slice(0, count);
  return {
    emulator,
    dir,
    file,
    mirror,
    api,
    pusher,
    events,
    loadTasks,
    async loadListed() {
      const answer = await reader.listPage(taskOperations.list, { orgId: emulator.orgId }, { limit: 1000 });
      if (answer.status !== 200) throw new Error(`tasks.list answered ${answer.status}`);
      mirror.passes.applyPage({
        collection: 'tasks',
        partial: true,
        pageIndex: 0,
        cursorSent: null,
        etag: answer.etag,
        nextCursor: answer.body.next_cursor,
        items: answer.body.data,
      });
    },
    taskIds,
    async loadedTaskIds(count) {
      const ids = taskIds(count);
      await loadTasks(ids);
      return ids;
    },
    apiWith,
    async close() {
      mirror.close();
      await clients.closeAll();
      await emulator.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

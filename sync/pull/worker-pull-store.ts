// PullStore served by a worker thread with its own connection to the mirror
// file: the main thread only posts pages and awaits replies, so no page write
// blocks its event loop. SQLite (WAL) lets the app's own connection read
// meanwhile; its writes wait for the worker's transaction (one page at most).
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { RememberedIdentity } from '../../db/mirror';
import type { ResourceChange, SyncNotification } from '../engine/sync-events';
import type {
  FetchedPage,
  PageOutcome,
  PassRecord,
  PullStore,
  ReadPage,
  RemovalOutcome,
  StoredCollection,
} from './pull-store';
import {
  deserializeError,
  type DropPageCall,
  type ReadPageCall,
  STAGE_SLICE,
  type StageItems,
  type StoreCall,
  type StoreMethod,
  type StoreReply,
} from './worker-protocol';

/**
 * Where the pull worker comes from and how it opens SQLite. The defaults suit
 * Node (tests, benchmarks, the headless command): the `.ts` entry beside this
 * file through tsx, and better-sqlite3's addon from node_modules. The
 * Electron app passes both (see /tmp/interfaces.md, "sync: pull worker options").
 */
export interface WorkerPullStoreOptions {
  /**
   * The worker's entry module, as a URL or an absolute file path. Default:
   * pull-store-worker.ts beside this file. A bundled app passes its built
   * `pull-store-worker.js` (electron.vite.config.ts builds it beside
   * out/main/index.js). A `.ts` entry is loaded through tsx.
   */
  workerUrl?: URL | string;
  /**
   * better-sqlite3's addon file for the worker's connection (better-sqlite3's
   * `nativeBinding`). Under Electron, the Electron build that
   * main/native/sqlite-addon.ts locates: the Node build in node_modules cannot
   * load there. Default: the addon in node_modules.
   */
  nativeBinding?: string;
}

/** What the worker is started with (its `workerData`). */
export interface PullWorkerData {
  file: string;
  nativeBinding?: string;
}

/** Starts the worker: a `.ts` entry registers tsx first (development, tests, benchmarks). */
function startWorker(entry: URL | string, data: PullWorkerData): Worker {
  const url = typeof entry === 'string' ? pathToFileURL(entry) : entry;
  if (!url.pathname.endsWith('.ts')) return new Worker(url, { workerData: data });
  // tsx's ES module API (its `require` condition resolves to the CommonJS build beside it).
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const bootstrap = `
    const { workerData } = require('node:worker_threads');
    import(workerData.tsxApi)
      .then((tsx) => { tsx.register(); return import(workerData.entry); })
      .catch((error) => { setImmediate(() => { throw error; }); });
  `;
  return new Worker(bootstrap, { eval: true, workerData: { ...data, tsxApi, entry: url.href } });
}

export class WorkerPullStore implements PullStore {
  /** Items are validated in the worker, beside their write: the main thread only parses. */
  readonly validatesItems = true;
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(
    private readonly file: string,
    private readonly options: WorkerPullStoreOptions = {},
  ) {}

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.options.workerUrl ?? new URL('./pull-store-worker.ts', import.meta.url), {
      file: this.file,
      ...(this.options.nativeBinding !== undefined ? { nativeBinding: this.options.nativeBinding } : {}),
    });
    // An idle worker must not keep the process alive on its own; one with calls
    // pending must, or Node would exit while a caller still awaits its answer.
    worker.unref();
    worker.on('message', (reply: StoreReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(deserializeError(reply.error));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the pull worker exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private call<T>(method: StoreMethod, ...args: unknown[]): Promise<T> {
    return this.send((id) => ({ id, method, args }) satisfies StoreCall);
  }

  /** Posts the message built for a new call id (moving `transfer` along) and awaits its reply. */
  private send<T>(
    message: (id: number) => StoreCall | ReadPageCall,
    transfer: ArrayBuffer[] = [],
  ): Promise<T> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      worker.postMessage(message(id), transfer);
    });
  }

  /**
   * The body is transferred, not copied, and parsed in the worker: this
   * thread never parses a 1000-task page. The worker answers as soon as it
   * is free (behind at most the page write it is in), so the walk asks for
   * the next page without waiting for the writes queued before it.
   */
  readPage(operation: string, body: ArrayBuffer): Promise<ReadPage> {
    return this.send(
      (id) => ({ method: 'readPage', id, readAs: id, operation, body }) satisfies ReadPageCall,
      [body],
    );
  }

  dropPage(readAs: number): void {
    this.worker?.postMessage({ method: 'dropPage', readAs } satisfies DropPageCall);
  }

  /** Closes the worker's connection and ends it. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // keep the process alive until the worker has closed the mirror
    worker.postMessage({ method: 'close' });
    await exited;
  }

  /** Starts the worker (if it is not running) and waits until it has opened the mirror. */
  ready(): Promise<void> {
    return this.call('ready');
  }

  pass(collection: StoredCollection, scope: string): Promise<PassRecord | null> {
    return this.call('pass', collection, scope);
  }
  beginPass(collection: StoredCollection, scope: string, options: { partial: boolean; restart: boolean }) {
    return this.call<{ passNo: number }>('beginPass', collection, scope, options);
  }
  /**
   * Copying a 1000-item page into one message would hold this thread for
   * milliseconds: the items go ahead in slices, a turn of the event loop
   * apart, and the worker applies them together in one transaction.
   */
  async applyPage(
    collection: StoredCollection,
    scope: string,
    partial: boolean,
    page: FetchedPage,
  ): Promise<PageOutcome> {
    if (page.readAs !== undefined || page.items.length <= STAGE_SLICE) {
      return this.call('applyPage', collection, scope, partial, page);
    }
    const worker = this.ensureWorker();
    const stage = this.nextId++;
    for (let at = 0; at < page.items.length; at += STAGE_SLICE) {
      worker.postMessage({
        method: 'stage',
        stage,
        items: page.items.slice(at, at + STAGE_SLICE),
      } satisfies StageItems);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return this.call('applyPage', collection, scope, partial, { ...page, items: [] }, stage);
  }
  reusePages(collection: StoredCollection, scope: string, pageIndexes: readonly number[]): Promise<void> {
    return this.call('reusePages', collection, scope, pageIndexes);
  }
  completePass(collection: StoredCollection, scope: string, lastPageIndex: number): Promise<RemovalOutcome> {
    return this.call('completePass', collection, scope, lastPageIndex);
  }
  applyTask(task: Record<string, unknown>, etag: string | null): Promise<ResourceChange[]> {
    return this.call('applyTask', task, etag);
  }
  removeTask(taskId: string): Promise<RemovalOutcome> {
    return this.call('removeTask', taskId);
  }
  task(taskId: string) {
    return this.call<{ server: Record<string, unknown> | null; etag: string | null } | null>('task', taskId);
  }
  ids(collection: Exclude<StoredCollection, 'tasks'>, scope?: string): Promise<string[]> {
    return this.call('ids', collection, scope);
  }
  resources(
    collection: Exclude<StoredCollection, 'tasks'>,
    scope?: string,
  ): Promise<Record<string, unknown>[]> {
    return this.call('resources', collection, scope);
  }
  myOpenTaskIds(username: string, limit: number): Promise<string[]> {
    return this.call('myOpenTaskIds', username, limit);
  }
  newestTaskDay(): Promise<string | null> {
    return this.call('newestTaskDay');
  }
  addNotifications(forUser: string, notifications: readonly SyncNotification[]): Promise<void> {
    return this.call('addNotifications', forUser, notifications);
  }
  setAccount(account: { orgId: string; username: string }): Promise<void> {
    return this.call('setAccount', account);
  }
  rememberedIdentity(): Promise<RememberedIdentity | null> {
    return this.call('rememberedIdentity');
  }
  rememberIdentity(identity: RememberedIdentity): Promise<void> {
    return this.call('rememberIdentity', identity);
  }
}

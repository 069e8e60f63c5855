// PullStore served by a worker thread with its own connection to the mirror
// file: the main thread only posts pages and awaits replies, so no page write
// blocks its event loop. SQLite (WAL) lets the app's own connection read
// meanwhile; its writes wait for the worker's transaction (one page at most).
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { MAX_ROW_NESTING, nestedDeeperThan } from '../../db/collections/row-nesting';
import { bundledSourceWorker } from './source-worker-bundle';
import type { FetchedPage, PageOutcome, PullStore, ReadPage, StoredCollection } from './pull-store';
import {
  type CheckpointLogCall,
  deserializeError,
  type DropPageCall,
  namedArgs,
  type ReadPageCall,
  STAGE_SLICE,
  type StageItems,
  type StoreArgs,
  type StoreCall,
  STORE_METHOD_NAMES,
  type StoreMethod,
  type StoreReply,
  type WorkerMessage,
} from './worker-protocol';

/**
 * Where the pull worker comes from and how it opens SQLite. The defaults suit
 * Node (tests, benchmarks, the headless command): the `.ts` entry beside this
 * file (bundled from source), and better-sqlite3's addon from node_modules. The
 * Electron app passes both (main/ipc wiring: the built worker and Electron's addon).
 */
export interface WorkerPullStoreOptions {
  /**
   * The worker's entry module, as a URL or an absolute file path. Default:
   * the worker beside this module (defaultWorkerUrl). A bundled app passes its built
   * `pull-store-worker.js` (electron.vite.config.ts builds it beside
   * out/main/index.js). A `.ts` entry is bundled first (source-worker-bundle.ts).
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

/**
 * The worker beside this module: its source when this runs from source, its
 * bundle when this is the built headless command (build/build-cli.js writes
 * out/cli/pull-store-worker.mjs beside out/cli/svc-desktop.mjs).
 */
function defaultWorkerUrl(): URL {
  const fromSource = import.meta.url.endsWith('.ts');
  return new URL(fromSource ? './pull-store-worker.ts' : './pull-store-worker.mjs', import.meta.url);
}

/** Starts a worker (this one, or the mirror's upgrade worker): a `.ts` entry from its bundle (development, tests, benchmarks). */
export function startWorker(entry: URL | string, data: unknown): Worker {
  const url = typeof entry === 'string' ? pathToFileURL(entry) : entry;
  return new Worker(url.pathname.endsWith('.ts') ? bundledSourceWorker(url) : url, { workerData: data });
}

/**
 * The PullStore methods that are plain calls to the worker, one per entry of
 * STORE_METHODS, defined from that table: each names its arguments and hands
 * the call to `sendCall`.
 */
abstract class StoreCallForwarder {
  protected abstract sendCall<Method extends StoreMethod>(
    method: Method,
    args: StoreArgs<Method>,
    stage?: number,
  ): Promise<unknown>;

  static {
    for (const method of STORE_METHOD_NAMES) {
      Object.defineProperty(this.prototype, method, {
        configurable: true,
        writable: true,
        value(this: StoreCallForwarder, ...values: unknown[]): Promise<unknown> {
          return this.sendCall(method, namedArgs(method, values));
        },
      });
    }
  }
}

/**
 * StoreCallForwarder as the compiler sees it: with the methods its static
 * block defines, but applyPage, which WorkerPullStore defines itself (it
 * sends a large page's items ahead in slices).
 */
const ForwardedStoreCalls = StoreCallForwarder as unknown as abstract new () => StoreCallForwarder &
  Omit<Pick<PullStore, StoreMethod>, 'applyPage'>;

export class WorkerPullStore extends ForwardedStoreCalls implements PullStore {
  /** Items are validated in the worker, beside their write: the main thread only parses. */
  readonly validatesItems = true;
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

  constructor(
    private readonly file: string,
    private readonly options: WorkerPullStoreOptions = {},
  ) {
    super();
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker(this.options.workerUrl ?? defaultWorkerUrl(), {
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

  protected override sendCall<Method extends StoreMethod>(
    method: Method,
    args: StoreArgs<Method>,
    stage?: number,
  ): Promise<unknown> {
    return this.send((id) => ({ id, method, args, ...(stage !== undefined ? { stage } : {}) }) as StoreCall);
  }

  /** Posts the message built for a new call id (moving `transfer` along) and awaits its reply. */
  private send<T>(message: (id: number) => WorkerMessage, transfer: ArrayBuffer[] = []): Promise<T> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      if (this.pending.size === 0) worker.ref();
      this.pending.set(id, { resolve, reject });
      try {
        worker.postMessage(message(id), transfer);
      } catch (error) {
        // Not sent (it could not be copied): no reply will come, and the process must not wait for one.
        this.pending.delete(id);
        if (this.pending.size === 0) worker.unref();
        throw error;
      }
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

  /**
   * Copies the mirror's write-ahead log into the file on the worker's
   * connection, in turn with the calls before it (Mirror.keepLogShort asks).
   * Resolves at once when no worker runs: nothing of the engine's is open then.
   */
  checkpointLog(): Promise<void> {
    if (this.worker === null) return Promise.resolve();
    return this.send((id) => ({ method: 'checkpointLog', id }) satisfies CheckpointLogCall);
  }

  /** Closes the worker's connection and ends it. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.ref(); // keep the process alive until the worker has closed the mirror
    worker.postMessage({ method: 'close' } satisfies WorkerMessage);
    await exited;
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
    try {
      return await this.postPage(collection, scope, partial, page);
    } catch (error) {
      if (!isUncopyable(error)) throw error;
    }
    // An item nests too deep to be copied to the worker (a hostile answer): it is left out here,
    // by the rule the mirror would refuse it with, and named by its top-level fields (its id).
    const items: Record<string, unknown>[] = [];
    const skipped = [...(page.skipped ?? [])];
    for (const item of page.items) {
      if (!nestedDeeperThan(item)) items.push(item);
      else skipped.push({ item: topLevelScalars(item), field: '(row)', reason: TOO_DEEP });
    }
    return this.postPage(collection, scope, partial, { ...page, items, skipped });
  }

  private async postPage(
    collection: StoredCollection,
    scope: string,
    partial: boolean,
    page: FetchedPage,
  ): Promise<PageOutcome> {
    if (page.readAs !== undefined || page.items.length <= STAGE_SLICE) {
      return this.sendCall('applyPage', { collection, scope, partial, page }) as Promise<PageOutcome>;
    }
    const worker = this.ensureWorker();
    const stage = this.nextId++;
    for (let at = 0; at < page.items.length; at += STAGE_SLICE) {
      try {
        worker.postMessage({
          method: 'stage',
          stage,
          items: page.items.slice(at, at + STAGE_SLICE),
        } satisfies StageItems);
      } catch (error) {
        // The slices sent before are forgotten (stages and read pages share their ids).
        worker.postMessage({ method: 'dropPage', readAs: stage } satisfies DropPageCall);
        throw error;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
    const args = { collection, scope, partial, page: { ...page, items: [] } };
    return this.sendCall('applyPage', args, stage) as Promise<PageOutcome>;
  }
}

const TOO_DEEP = `nests more than ${MAX_ROW_NESTING} levels deep`;

/** postMessage could not copy the message: a value nested past the structured clone's stack. */
function isUncopyable(error: unknown): boolean {
  return error instanceof RangeError || (error instanceof Error && error.name === 'DataCloneError');
}

/** An item's fields that hold no object or array: enough to read its id by. */
function topLevelScalars(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, v]) => typeof v !== 'object' || v === null));
}

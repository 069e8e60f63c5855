// The worker side of WorkerPullStore: owns a connection to the mirror file and
// runs each PullStore call there, so that applying a 1000-task page (columns,
// word index, one fsynced transaction) never stalls the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import { openMirror, PAGE_WRITER_CACHE_MB, PAGE_WRITER_CHECKPOINT_PAGES } from '../../db/open-mirror';
import { MirrorPullStore } from './mirror-pull-store';
import { readListBody } from './deferred-validation';
import type { ReadPage } from './pull-store';
import {
  callStore,
  type PullWorkerData,
  serializeError,
  type StoreReply,
  type WorkerMessage,
} from './worker-protocol';

const { file, nativeBinding } = workerData as PullWorkerData;
const port = parentPort;
if (port === null) throw new Error('pull-store-worker runs only as a worker thread');

const ready = openMirror(file, {
  cacheSizeMb: PAGE_WRITER_CACHE_MB,
  checkpointPages: PAGE_WRITER_CHECKPOINT_PAGES,
  flushLogInBackground: true,
  ...(nativeBinding !== undefined ? { nativeBinding } : {}),
}).then((mirror) => ({
  mirror,
  store: new MirrorPullStore(mirror),
}));

/** Page items sent ahead in slices, by stage id, until their applyPage call arrives. */
const staged = new Map<number, Record<string, unknown>[]>();
/** Items of page bodies read here (readPage), until applyPage names them or dropPage forgets them. */
const readPages = new Map<number, Record<string, unknown>[]>();

port.on('message', (call: WorkerMessage) => {
  if (call.method === 'readPage') {
    // Answered at once, before any write queued behind it: the walk waits for the next cursor.
    try {
      const page = readListBody(call.operation, call.body);
      readPages.set(call.readAs, page.data as Record<string, unknown>[]);
      const value: ReadPage = {
        readAs: call.readAs,
        nextCursor: page.next_cursor,
        total: page.total ?? null,
        count: page.data.length,
      };
      port.postMessage({ id: call.id, ok: true, value } satisfies StoreReply);
    } catch (error) {
      port.postMessage({ id: call.id, ok: false, error: serializeError(error) } satisfies StoreReply);
    }
    return;
  }
  if (call.method === 'dropPage') {
    // Read pages and staged items are named from one counter: either may be forgotten so.
    readPages.delete(call.readAs);
    staged.delete(call.readAs);
    return;
  }
  if (call.method === 'stage') {
    const items = staged.get(call.stage) ?? [];
    items.push(...call.items);
    staged.set(call.stage, items);
    return;
  }
  if (call.method === 'checkpointLog') {
    // In turn with the store's calls: never inside a page's transaction.
    const { id } = call;
    ready
      .then(({ mirror }) => mirror.checkpoint())
      .then(
        () => port.postMessage({ id, ok: true, value: null } satisfies StoreReply),
        (error: unknown) =>
          port.postMessage({ id, ok: false, error: serializeError(error) } satisfies StoreReply),
      );
    return;
  }
  if (call.method === 'close') {
    void ready.then(({ mirror }) => {
      mirror.close();
      port.close();
    });
    return;
  }
  if (call.method === 'applyPage' && call.stage !== undefined) {
    // The items came ahead in slices (see WorkerPullStore.applyPage).
    call.args.page = { ...call.args.page, items: staged.get(call.stage) ?? [] };
    staged.delete(call.stage);
  }
  if (call.method === 'applyPage') {
    const { page } = call.args;
    if (page.readAs !== undefined) {
      const items = readPages.get(page.readAs);
      readPages.delete(page.readAs);
      if (items === undefined) {
        const error = new Error(`page ${page.pageIndex} was not read before it was applied`);
        port.postMessage({ id: call.id, ok: false, error: serializeError(error) } satisfies StoreReply);
        return;
      }
      call.args.page = { ...page, items };
    }
  }
  const { id } = call;
  const fail = (error: unknown) =>
    port.postMessage({ id, ok: false, error: serializeError(error) } satisfies StoreReply);
  ready
    .then(({ store }) => callStore(store, call))
    .then((value) => {
      try {
        port.postMessage({ id, ok: true, value } satisfies StoreReply);
      } catch (error) {
        // An answer that cannot be copied back fails its call: unanswered, the caller would wait for good.
        fail(error);
      }
    }, fail);
});

// Messages between WorkerPullStore and its worker: a call (method and named
// arguments, plain data, from one table of methods) and its reply; errors
// travel as their name, message and own fields, so typed mirror errors keep
// what callers branch on.
import { MirrorStorageError, MirrorVersionError, type StorageProblem } from '../../db/mirror-errors';
import { InvalidResponseError, type ResponseIssue } from '../api/errors';
import type { PullStore } from './pull-store';

/** What the worker is started with (its `workerData`). */
export interface PullWorkerData {
  file: string;
  nativeBinding?: string;
}

/** The PullStore calls that travel as a method name and arguments (readPage and dropPage have messages of their own). */
export type StoreMethod = Exclude<keyof PullStore, 'validatesItems' | 'readPage' | 'dropPage'>;

/** A name for each parameter, as many as the method has (optional ones included). */
type ParameterNames<Parameters extends readonly unknown[]> = { readonly [At in keyof Parameters]-?: string };

/**
 * Each call's parameter names, in order: the one list from which both the
 * proxy's methods (WorkerPullStore) and the worker's dispatch are derived.
 * The compiler holds it to PullStore: one entry per method, one name per parameter.
 */
export const STORE_METHODS = {
  ready: [],
  pass: ['collection', 'scope'],
  beginPass: ['collection', 'scope', 'options'],
  applyPage: ['collection', 'scope', 'partial', 'page'],
  reusePages: ['collection', 'scope', 'pageIndexes'],
  completePass: ['collection', 'scope', 'lastPageIndex'],
  applyTask: ['task', 'etag'],
  removeTask: ['taskId'],
  task: ['taskId'],
  ids: ['collection', 'scope'],
  resources: ['collection', 'scope'],
  commentWatchTaskIds: ['query'],
  commentsChecked: ['taskIds', 'at'],
  newestTaskDay: [],
  addNotifications: ['forUser', 'notifications'],
  rememberedIdentity: [],
  rememberIdentity: ['identity'],
  setAccount: ['account'],
} as const satisfies { readonly [Method in StoreMethod]: ParameterNames<Parameters<PullStore[Method]>> };

export const STORE_METHOD_NAMES = Object.keys(STORE_METHODS) as StoreMethod[];

type NamesOf<Method extends StoreMethod> = (typeof STORE_METHODS)[Method];
type ParametersOf<Method extends StoreMethod> = Parameters<PullStore[Method]>;

/** A call's arguments by name, e.g. applyPage's `{ collection, scope, partial, page }`. */
export type StoreArgs<Method extends StoreMethod> = {
  [At in keyof NamesOf<Method> & `${number}` as NamesOf<Method>[At] & string]: ParametersOf<Method>[At &
    keyof ParametersOf<Method>];
};

export type StoreCall = {
  [Method in StoreMethod]: {
    id: number;
    method: Method;
    args: StoreArgs<Method>;
    /** applyPage only: the page's items came ahead in StageItems messages under this id. */
    stage?: number;
  };
}[StoreMethod];

/** A call's arguments, given in order, by their names in STORE_METHODS. */
export function namedArgs<Method extends StoreMethod>(
  method: Method,
  values: readonly unknown[],
): StoreArgs<Method> {
  const names: readonly string[] = STORE_METHODS[method];
  return Object.fromEntries(names.map((name, at) => [name, values[at]])) as StoreArgs<Method>;
}

/** Runs a call on `store`, its named arguments put back in the order of STORE_METHODS. */
export function callStore(store: PullStore, call: StoreCall): Promise<unknown> {
  const names: readonly string[] = STORE_METHODS[call.method];
  const args = call.args as Record<string, unknown>;
  const values = names.map((name) => args[name]);
  return (store[call.method] as (...values: unknown[]) => Promise<unknown>).apply(store, values);
}

/** Part of a page's items, sent ahead of the applyPage call that names the same `stage`. */
export interface StageItems {
  method: 'stage';
  stage: number;
  items: readonly Record<string, unknown>[];
}

/** Items per message: copying a slice for postMessage takes well under a millisecond. */
export const STAGE_SLICE = 100;

/** A page body handed over (transferred) to be read and kept as `readAs` (PullStore.readPage). */
export interface ReadPageCall {
  method: 'readPage';
  id: number;
  readAs: number;
  operation: string;
  body: ArrayBuffer;
}

/** A read page that will not be applied. */
export interface DropPageCall {
  method: 'dropPage';
  readAs: number;
}

/**
 * Copy the write-ahead log into the file on the worker's connection (a
 * PASSIVE checkpoint): the app's main thread asks between the commits of a
 * bulk change, its own connection never checkpointing (Mirror.keepLogShort).
 */
export interface CheckpointLogCall {
  method: 'checkpointLog';
  id: number;
}

/** Close the worker's connection and end the worker. */
export interface CloseCall {
  method: 'close';
}

/** Every message the worker receives. */
export type WorkerMessage =
  StoreCall | StageItems | ReadPageCall | DropPageCall | CheckpointLogCall | CloseCall;

export interface SerializedError {
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

export type StoreReply =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: SerializedError };

export function serializeError(error: unknown): SerializedError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
    else if (Array.isArray(value)) fields[key] = JSON.parse(JSON.stringify(value)) as unknown;
  }
  return { name: error.name, message: error.message, fields };
}

/** An error from the worker: same name, message and plain fields as the one thrown there. */
export class WorkerStoreError extends Error {
  constructor(serialized: SerializedError) {
    super(serialized.message);
    Object.assign(this, serialized.fields);
    this.name = serialized.name;
  }
}

/** The error thrown in the worker, as this thread knows it: API errors are rebuilt as their own class. */
export function deserializeError(serialized: SerializedError): Error {
  const { fields } = serialized;
  if (serialized.name === 'InvalidResponseError' && typeof fields.operation === 'string') {
    const issues = Array.isArray(fields.issues) ? (fields.issues as ResponseIssue[]) : [];
    return new InvalidResponseError(
      fields.operation,
      typeof fields.status === 'number' ? fields.status : 200,
      issues,
    );
  }
  // The mirror's own errors keep their class: the app branches on it (a refused file, a locked one).
  if (
    serialized.name === 'MirrorVersionError' &&
    typeof fields.file === 'string' &&
    typeof fields.detail === 'string'
  ) {
    return new MirrorVersionError(fields.file, fields.detail);
  }
  if (
    serialized.name === 'MirrorStorageError' &&
    typeof fields.problem === 'string' &&
    typeof fields.file === 'string'
  ) {
    const code = typeof fields.code === 'string' ? fields.code : null;
    return new MirrorStorageError(fields.problem as StorageProblem, fields.file, code);
  }
  return new WorkerStoreError(serialized);
}

// Messages between WorkerPullStore and its worker: a call (method and
// arguments, plain data) and its reply; errors travel as their name, message
// and own fields, so typed mirror errors keep what callers branch on.
import { InvalidResponseError, type ResponseIssue } from '../api/errors';
import type { PullStore } from './pull-store';

/** The PullStore calls that travel as a method name and arguments (readPage and dropPage have messages of their own). */
export type StoreMethod = Exclude<keyof PullStore, 'validatesItems' | 'readPage' | 'dropPage'>;

export interface StoreCall {
  id: number;
  method: StoreMethod;
  args: unknown[];
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
  return new WorkerStoreError(serialized);
}

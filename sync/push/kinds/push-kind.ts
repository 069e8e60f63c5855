// What one writable kind of resource tells the pusher: where its create,
// update, delete and single read go, and the body each takes. The pusher's
// ordering, claiming, 412 merge, conflicts and failures are the same for all.
import type { ApiClient } from '../../api/api-client';
import type { DeleteOperation, ReadOperation, UpdateOperation } from '../../api/operations';
import type { FieldValues, PushOp, ServerTask } from '../push-store';

/** Options every request of a push carries (the person's lane, the pass's abort signal). */
export interface KindRequestOptions {
  lane: 'user';
  signal?: AbortSignal;
}

/** Where an upload's create finds the bytes it sends (the push store's `contentOf`). */
export type ContentSource = (sha256: string) => Promise<Uint8Array | null>;

export interface PushKind {
  /** The outbox's `entity_type` of its operations. */
  readonly entityType: string;
  /** The scope its writes need: a 403 that names no scope is taken as this one refused. */
  readonly writeScope: string;
  /** The contract's name of its delete (told in a held delete's error). */
  readonly deleteName: string;
  /**
   * Fields the service derives from other resources (a goal's task counts),
   * part of its ETag: a delete refused with 412 where nothing else changed
   * deletes the new version instead of waiting for the person.
   */
  readonly derivedFields?: readonly string[];
  /** Its create body names the organization (the pusher learns it before claiming the operation). */
  readonly needsOrgId: boolean;
  /** Sends a create under its `Idempotency-Key`; `orgId` is null unless the kind needs it. */
  create(
    api: ApiClient,
    op: PushOp,
    orgId: string | null,
    options: KindRequestOptions & {
      idempotencyKey: string;
      content?: ContentSource;
      /** Hears an upload's bytes sent so far (kinds that send a body of bytes). */
      onUploadProgress?: (sentBytes: number, totalBytes: number) => void;
    },
  ): Promise<ServerTask>;
  /** Sends a merge-patch with `If-Match`. */
  update(
    api: ApiClient,
    op: PushOp,
    options: KindRequestOptions & { ifMatch: string | null; idempotencyKey: string },
  ): Promise<ServerTask>;
  /** Sends a delete with `If-Match` (null: none known). */
  remove(api: ApiClient, op: PushOp, options: KindRequestOptions & { ifMatch: string | null }): Promise<void>;
  /** Reads the resource's current version with its ETag (a 412's merge, a delete without a version). */
  read(api: ApiClient, op: PushOp, options: KindRequestOptions): Promise<ServerTask>;
}

/** A read answered 304 without If-None-Match breaks the contract. */
export function bodyOf<Body>(
  name: string,
  answer: { status: 200; etag: string | null; body: Body } | { status: 304; etag: string | null },
): { body: Body; etag: string | null } {
  if (answer.status === 304) throw new Error(`${name} answered 304 to a request without If-None-Match`);
  return { body: answer.body, etag: answer.etag };
}

/**
 * The update, delete and read of one item of a kind, each at the path
 * `itemParams` makes of the operation (`{ taskId }`, a goal's project and id),
 * and the contract's name of the delete.
 */
export function itemRequests<Body, Params>(
  operations: {
    update: UpdateOperation<Body, FieldValues, Params>;
    delete: DeleteOperation<unknown, Params>;
    get: ReadOperation<Body, Params>;
  },
  itemParams: (op: PushOp) => Params,
): Pick<PushKind, 'deleteName' | 'update' | 'remove' | 'read'> {
  return {
    deleteName: operations.delete.name,
    async update(api, op, options) {
      const answer = await api.update(operations.update, itemParams(op), op.patch, options);
      return { task: answer.body as FieldValues, etag: answer.etag };
    },
    async remove(api, op, options) {
      await api.remove(operations.delete, itemParams(op), options);
    },
    async read(api, op, options) {
      const { body, etag } = bodyOf(
        operations.get.name,
        await api.read(operations.get, itemParams(op), options),
      );
      return { task: body as FieldValues, etag };
    },
  };
}

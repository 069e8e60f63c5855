// The programmatic handle tests hold on a running emulator: faults, changes
// made by the peer member (as the API would make them: new ETag, updated_at,
// history), read access for assertions, and tokens.
import type { Clock } from './clock';
import type { EmulatorContext, RequestLogEntry } from './emulator-context';
import type { FaultPlan } from './faults';
import type { MintTokenInput, TokenRecord } from './identity/identity-store';
import type { RateLimitConfig } from './rate-limit';
import {
  type CommentRecord,
  type HistoryRecord,
  type SectionRecord,
  SECTIONS,
  type TaskRecord,
} from './records';
import { type CreateCounts, serializeTask, viewerOf } from './store';
import {
  createTask,
  deleteTask,
  parseTaskCreate,
  parseTaskPatch,
  patchTask,
  readableTask,
  type TaskCreateInput,
  type TaskPatchInput,
} from './task-changes';
import type { AttachmentRecord } from './uploads/attachment-store';
import type { VarianceMode } from './variance';

export interface MintTokenOptions {
  scopes: string[];
  /** Default: the main member. */
  principalUserId?: string;
  name?: string;
  kind?: 'live' | 'test';
  projectIds?: string[] | null;
  expiresAt?: string | null;
}

export interface EmulatorControl {
  /** Latency, dropped connections, 500s, 429 bursts, short/empty pages, refused cursors. */
  readonly faults: FaultPlan;
  readonly clock: Clock;
  /** The peer member changes a task (validated like a PATCH; throws ProblemReply on a bad patch). */
  peerEdit(taskId: string, patch: TaskPatchInput): TaskRecord;
  /** The peer member creates a task (`org_id` defaults to the organization). */
  peerCreate(fields: Omit<TaskCreateInput, 'org_id'> & { org_id?: string }): TaskRecord;
  peerDelete(taskId: string): void;
  /** A copy of one task as the API would send it, or undefined when it does not exist. */
  task(taskId: string): TaskRecord | undefined;
  /** Variance mode, when on: `setFaults(false)` stops its faults, `snapshot()` counts its liberties. */
  readonly variance: VarianceMode | null;
  /** One task exactly as the API sends it now (variance mode's rendering, else the record). */
  servedTask(taskId: string): Record<string, unknown> | undefined;
  /** Every task as the API sends it now (no particular order). */
  servedTasks(): Record<string, unknown>[];
  /** Any version of a task as the API sends (or sent) it. */
  serve(record: TaskRecord): Record<string, unknown>;
  /** Called after every change of a task (API or peer), with the version it replaced. */
  onTaskUpdate(listener: (before: TaskRecord, after: TaskRecord) => void): void;
  /** The ETag the API sends for a task now (without variance mode). */
  taskEtag(taskId: string): string | undefined;
  /** Copies of every task (no particular order). */
  tasks(): TaskRecord[];
  taskCount(): number;
  history(taskId: string): HistoryRecord[];
  /** Copies of every section, in every scope (no particular order). */
  sections(): SectionRecord[];
  /** Copies of every comment on the server, replies included (no particular order). */
  comments(): CommentRecord[];
  /** Successful creates through the API (replays of an Idempotency-Key not counted). */
  creates(): CreateCounts;
  /** Requests answered so far (oldest first; the control API's own are not logged). */
  requests(): readonly RequestLogEntry[];
  clearRequests(): void;
  mintToken(options: MintTokenOptions): { token: string; record: TokenRecord };
  revokeToken(tokenId: string, reason?: string): void;
  setOAuthAutoApprove(on: boolean): void;
  /** OAuth consents from now on grant none of these, whatever is asked ([] grants what is asked). */
  setOAuthWithheldScopes(scopes: readonly string[]): void;
  /**
   * An administrator narrows what the app was granted through the consent page:
   * every grant so far loses these scopes, its tokens now and after a refresh
   * (a write then answers 403 insufficient-scope); a new consent may grant them
   * again. Returns how many grants were narrowed.
   */
  withdrawOAuthScopes(scopes: readonly string[]): number;
  setRateLimit(config: Partial<RateLimitConfig>): void;
  /** Copies of every attachment record on the server (no particular order). */
  attachments(): AttachmentRecord[];
  /** Successful attachment uploads (replays of an Idempotency-Key not counted). */
  attachmentUploads(): number;
  /** The malware scan off: uploads that pass the type rules answer 503 `upload-rejected` with this Retry-After. */
  setMalwareScan(available: boolean, retryAfterSeconds?: number): void;
  /**
   * Upload bodies stop being read once `afterBytes` of them have come, until
   * this is called with null (an upload seen part-way); returns how many are stopped now.
   */
  holdUploadReading(afterBytes: number | null): number;
}

function copy(task: TaskRecord): TaskRecord {
  return { ...task, tags: [...task.tags] };
}

export function createControl(ctx: EmulatorContext): EmulatorControl {
  const { store } = ctx;
  const peer = () => viewerOf(store.peerMember, null);
  const served = (record: TaskRecord): Record<string, unknown> => {
    const plain = JSON.parse(serializeTask(record)) as Record<string, unknown>;
    return ctx.variance ? ctx.variance.renderResource(plain) : plain;
  };
  return {
    faults: ctx.faults,
    clock: ctx.clock,
    variance: ctx.variance,
    servedTask(taskId) {
      const entry = store.tasks.get(taskId);
      return entry ? served(entry.record) : undefined;
    },
    servedTasks() {
      return [...store.tasks.values()].map((entry) => served(entry.record));
    },
    serve: served,
    onTaskUpdate(listener) {
      store.onTaskChange((change) => {
        if (change.kind === 'update') listener(copy(change.before), copy(change.entry.record));
      });
    },
    peerEdit(taskId, patch) {
      const viewer = peer();
      const entry = readableTask(store, viewer, taskId);
      patchTask(store, viewer, entry, parseTaskPatch(patch, ctx.variance !== null));
      return copy(entry.record);
    },
    peerCreate(fields) {
      const input = parseTaskCreate({ org_id: store.org.org_id, ...fields }, ctx.variance !== null);
      return copy(createTask(store, peer(), input).record);
    },
    peerDelete(taskId) {
      const viewer = peer();
      deleteTask(store, viewer, readableTask(store, viewer, taskId));
    },
    task(taskId) {
      const entry = store.tasks.get(taskId);
      return entry ? copy(entry.record) : undefined;
    },
    taskEtag(taskId) {
      return store.tasks.get(taskId)?.etag;
    },
    tasks() {
      return [...store.tasks.values()].map((entry) => copy(entry.record));
    },
    taskCount() {
      return store.tasks.size;
    },
    history(taskId) {
      return store.historyOf(taskId).map((h) => ({ ...h }));
    },
    sections() {
      return [...store.records(SECTIONS).values()].map((section) => ({ ...section }));
    },
    comments() {
      return [...store.comments.values()].map((c) => ({ ...c, mentions: c.mentions.map((m) => ({ ...m })) }));
    },
    creates() {
      return { ...store.creates };
    },
    requests() {
      return ctx.requestLog;
    },
    clearRequests() {
      ctx.requestLog.length = 0;
    },
    mintToken(options) {
      const input: MintTokenInput = {
        principalUserId: options.principalUserId ?? store.mainUserId,
        name: options.name ?? 'minted by a test',
        scopes: options.scopes,
        createdBy: store.mainUserId,
        ...(options.kind !== undefined ? { kind: options.kind } : {}),
        ...(options.projectIds !== undefined ? { projectIds: options.projectIds } : {}),
        ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
      };
      return ctx.identity.mintToken(input);
    },
    revokeToken(tokenId, reason) {
      ctx.identity.revokeToken(tokenId, store.mainUserId, reason);
    },
    setOAuthAutoApprove(on) {
      ctx.oauthAutoApprove = on;
    },
    setOAuthWithheldScopes(scopes) {
      ctx.oauthWithheldScopes = [...scopes];
    },
    withdrawOAuthScopes(scopes) {
      return ctx.oauth.withdrawScopes(scopes);
    },
    setRateLimit(config) {
      Object.assign(ctx.rateLimiter.config, config);
    },
    attachments() {
      return [...ctx.attachments.records.values()].map((record) => ({ ...record }));
    },
    attachmentUploads() {
      return ctx.attachments.created;
    },
    setMalwareScan(available, retryAfterSeconds) {
      ctx.attachments.scan.available = available;
      if (retryAfterSeconds !== undefined) ctx.attachments.scan.retryAfterSeconds = retryAfterSeconds;
    },
    holdUploadReading(afterBytes) {
      ctx.attachments.readHold.set(afterBytes);
      return ctx.attachments.readHold.holding;
    },
  };
}

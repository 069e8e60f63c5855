// THE IPC contract: every call (renderer → main) and event (main → renderer),
// declared once with zod schemas. Main validates against it; the renderer's
// `window.svc` type is derived from it (import it with `import type` only).
//
// Adding a call: one entry in `invokeChannels` here, one handler in a handler
// map registered with the gate (main/ipc/gate.ts). Names are `resource:verb`.
// Inputs are always checked whole; an answer is checked against its `envelope`
// when it has one (pages of rows our own code builds), else whole.
import { z } from 'zod';
import {
  accountListSchema,
  accountSummarySchema,
  filedTasksRequestSchema,
  filedTasksEnvelopeSchema,
  filedTasksSchema,
  milestoneSummarySchema,
  mirrorChangedSchema,
  secretStorageSchema,
  serverSettingsSchema,
  signOutSchema,
  syncStatusSchema,
  taskActivitySchema,
  taskCountRequestSchema,
  listClosedSchema,
  taskCountSchema,
  intakeCountsSchema,
  taskCreateSchema,
  taskDetailSchema,
  taskPageSchema,
  taskPageEnvelopeSchema,
  taskPatchSchema,
  taskQueryRequestSchema,
  tokenSignInSchema,
  workspaceSchema,
} from './screen-schemas';
import {
  conflictTargetSchema,
  conflictViewSchema,
  pendingChangeSchema,
  pendingChangesSchema,
  resolvedSchema,
  resolveInputSchema,
  retryInputSchema,
} from './outbox-schemas';
import {
  diagnosticsSchema,
  notificationOpenSchema,
  notificationSettingsPatchSchema,
  notificationSettingsSchema,
  syncAccountsSchema,
  syncLogPageSchema,
  syncLogQuerySchema,
  syncPausedSchema,
} from './visibility-schemas';
import { updateStatusSchema } from './update-schemas';
import {
  batchInputSchema,
  bulkEditInputSchema,
  bulkProgressSchema,
  bulkQueuedSchema,
  bulkStoppedSchema,
} from './bulk-schemas';
import { undoLabelsSchema, undoneSchema } from './undo-schemas';
import { copiedLinkSchema, linkRequestSchema } from './link-schemas';
import {
  commentCreateInputSchema,
  commentDeleteInputSchema,
  commentEditInputSchema,
  commentQueuedSchema,
} from './comment-schemas';
import {
  collectionCreateInputSchema,
  collectionDeleteInputSchema,
  collectionEditInputSchema,
  collectionQueuedSchema,
} from './collection-schemas';
import { draftKeySchema, draftListInputSchema, draftSchema } from './draft-schemas';
import { inboxMarkReadInputSchema, inboxSchema } from './inbox-schemas';
import { viewRowsRequestSchema, viewRowsSchema, viewSidebarSchema } from './view-schemas';
import {
  attachmentAddedSchema,
  attachmentAddInputSchema,
  attachmentCacheSchema,
  attachmentCacheSetInputSchema,
  attachmentDropInputSchema,
  attachmentListInputSchema,
  attachmentListSchema,
  attachmentOpenInputSchema,
  attachmentUploadProgressSchema,
} from './attachment-schemas';
import { localIdSchema, idSchema, taskIdInputSchema } from './id-schemas';

/** Theme preference: `system` follows the OS (the default). */
export const themePreferenceSchema = z.enum(['system', 'light', 'dark']);
export type ThemePreference = z.infer<typeof themePreferenceSchema>;

/** The preferences the renderer may read and change (window geometry stays in main). */
export const rendererSettingsSchema = z.object({
  theme: themePreferenceSchema,
});
export type RendererSettings = z.infer<typeof rendererSettingsSchema>;

export const appInfoSchema = z.object({
  name: z.string(),
  version: z.string(),
  /** `process.platform` of main: `darwin`, `win32` or `linux` on the platforms we ship. */
  platform: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;

/**
 * What the app is doing while its window waits for the accounts to open: an
 * account's mirror, written by an older version, being upgraded (`applied` of
 * `total` migrations done; the calls waiting are answered after); null otherwise.
 */
export const openingSchema = z
  .object({
    account_id: z.string(),
    applied: z.number().int().nonnegative(),
    total: z.number().int().positive(),
  })
  .nullable();
export type Opening = z.infer<typeof openingSchema>;

const noInput = z.undefined();

export const invokeChannels = {
  'app:info': { input: noInput, output: appInfoSchema },
  /** Answered at once, also while the accounts are still opening (main/ipc/opening-handlers.ts). */
  'app:opening': { input: noInput, output: openingSchema },
  'settings:get': { input: noInput, output: rendererSettingsSchema },
  /** Changes the given preferences; answers all of them and emits `settings:changed`. */
  'settings:set': { input: rendererSettingsSchema.partial().strict(), output: rendererSettingsSchema },
  /** Opens an https link the person clicked in their browser; other schemes are refused (`url-refused`). */
  'external-link:open': { input: z.strictObject({ url: z.string().max(8192) }), output: z.null() },

  // Accounts (main/ipc/account-handlers.ts). Failures carry the sign-in error's type (`token-invalid`, `oauth-denied`, …).
  'accounts:list': { input: noInput, output: accountListSchema },
  /** The server settings the sign-in form starts from (configuration, or the last one used). */
  'accounts:server-defaults': { input: noInput, output: serverSettingsSchema },
  'accounts:sign-in-token': { input: tokenSignInSchema, output: accountSummarySchema },
  /** Opens the consent page in the browser and answers once the loopback redirect arrived and tokens were exchanged. */
  'accounts:start-oauth': {
    input: z.strictObject({
      server: serverSettingsSchema,
      account_id: localIdSchema.optional(),
    }),
    output: accountSummarySchema,
  },
  'accounts:cancel-oauth': { input: noInput, output: z.null() },
  'accounts:sign-out': { input: signOutSchema, output: accountListSchema },
  'accounts:switch': {
    input: z.strictObject({ account_id: localIdSchema }),
    output: accountSummarySchema,
  },
  /** Whether sign-ins are kept between runs (see secretStorageSchema); the sign-in screen tells the person. */
  'accounts:secret-storage': { input: noInput, output: secretStorageSchema },
  /** Without a real keychain: keep sign-ins between runs anyway (`keep`), or for this session only. */
  'accounts:keep-sign-ins': { input: z.strictObject({ keep: z.boolean() }), output: secretStorageSchema },
  /** "Try the demo": starts the local emulator with sample data and signs in to it. */
  'demo:start': { input: noInput, output: accountSummarySchema },

  // The current account's mirror (main/ipc/task-handlers.ts): read locally, never waiting on the network.
  /**
   * A page of the list. With `list`, a call of another query for the same window and list arriving
   * before this one ran (or between the pages of its `skip`) makes it fail `superseded`: a keystroke's
   * query never waits behind an older one.
   */
  'tasks:query': { input: taskQueryRequestSchema, output: taskPageSchema, envelope: taskPageEnvelopeSchema },
  /** Counted in short steps with main free between them, so typing never freezes the window. */
  'tasks:count': { input: taskCountRequestSchema, output: taskCountSchema },
  /** The window left the list: its count still running stops (nobody reads it), as the list's next query's does. */
  'tasks:list-closed': { input: listClosedSchema, output: z.null() },
  'tasks:intake-counts': { input: noInput, output: intakeCountsSchema },
  'tasks:filed': {
    input: filedTasksRequestSchema,
    output: filedTasksSchema,
    envelope: filedTasksEnvelopeSchema,
  },
  'task:get': { input: taskIdInputSchema, output: taskDetailSchema },
  /** Applies at once and queues the change for the server. */
  'task:edit': {
    input: z.strictObject({ task_id: idSchema, patch: taskPatchSchema }),
    output: taskDetailSchema,
  },
  'task:create': { input: z.strictObject({ fields: taskCreateSchema }), output: taskDetailSchema },
  'task:delete': { input: taskIdInputSchema, output: z.null() },
  // A change of many tasks at once (main/ipc/bulk-handlers.ts): one queued edit per task, under one batch id.
  /**
   * Queues the change for the tasks named, or for every task the query matches but `except`
   * (resolved in main, never loaded into the page), in short steps; answers once all are queued.
   */
  'tasks:bulk-edit': { input: bulkEditInputSchema, output: bulkQueuedSchema },
  /** How far sending the change has got: "N of M sent". */
  'tasks:bulk-progress': { input: batchInputSchema, output: bulkProgressSchema },
  /** Gives up what of the change was not sent yet (those tasks show the server's values again). */
  'tasks:bulk-stop': { input: batchInputSchema, output: bulkStoppedSchema },
  // Undo and redo of the person's own task changes of this session (main/ipc/undo-handlers.ts).
  'undo:labels': { input: noInput, output: undoLabelsSchema },
  /** Undoes the last change (in the outbox when not sent, else a reverse edit); says what it undid. */
  'undo:undo': { input: noInput, output: undoneSchema },
  'undo:redo': { input: noInput, output: undoneSchema },
  /** Comments and history as cached; with `refresh`, fresh ones are asked for behind (announced by `mirror:changed`). */
  'task:activity': {
    input: z.strictObject({ task_id: idSchema, refresh: z.boolean().optional() }),
    output: taskActivitySchema,
  },
  /** Queues a comment or a reply (shown at once in task:activity with `pending`); sent by the next push. */
  'comment:create': { input: commentCreateInputSchema, output: commentQueuedSchema },
  /** Queues an edit of one's own comment (merge-patch with If-Match); `op_id` null when nothing changed. */
  'comment:edit': { input: commentEditInputSchema, output: commentQueuedSchema },
  /** Queues a delete of a comment (If-Match); one never sent is dropped with its create (`op_id` null). */
  'comment:delete': { input: commentDeleteInputSchema, output: commentQueuedSchema },
  // Drafts (main/ipc/draft-handlers.ts): kept in the account's mirror until sent or discarded.
  /** Every draft, or those on one task; the most recently written first. */
  'drafts:list': { input: draftListInputSchema, output: z.array(draftSchema) },
  /** Keeps a draft, replacing what its key held (the renderer calls it debounced, never per keystroke). */
  'drafts:save': { input: draftSchema, output: z.null() },
  /** Drops a draft (sent, or discarded by the person); nothing when there is none. */
  'drafts:discard': { input: draftKeySchema, output: z.null() },
  // The inbox (main/ipc/inbox-handlers.ts): what happened to the person's work, kept in the mirror.
  /** The latest entries, newest first, with the unread count. */
  'inbox:list': { input: noInput, output: inboxSchema },
  /** Marks entries read (all when `ids` is left out); emits `mirror:changed` with `inbox`. */
  'inbox:mark-read': { input: inboxMarkReadInputSchema, output: z.null() },
  // Sections, sprints, goals and milestones (main/ipc/collection-handlers.ts): queued like task edits,
  // shown at once in workspace:get / milestones:list with `pending`, sent by the next push.
  /** Queues a new one (a temporary id until the service answers); `parent_id`: a sprint's team, a goal's or milestone's project. */
  'collection:create': { input: collectionCreateInputSchema, output: collectionQueuedSchema },
  /** Queues a merge-patch (sent with If-Match); `op_id` null when nothing changed. */
  'collection:edit': { input: collectionEditInputSchema, output: collectionQueuedSchema },
  /** Queues a delete (If-Match); one never sent is dropped with its create. Sprints have none (`validation`). */
  'collection:delete': { input: collectionDeleteInputSchema, output: collectionQueuedSchema },
  // Attachments (main/ipc/attachment-handlers.ts); renamed and deleted through collection:edit|delete.
  /** A task's attachments from the mirror (name, type, size, who, when), uploads still waiting included. */
  'attachments:list': { input: attachmentListInputSchema, output: attachmentListSchema },
  /** Main's file picker, then each file checked by the upload rules, copied and queued, or refused in the contract's words. */
  'attachment:add': { input: attachmentAddInputSchema, output: attachmentAddedSchema },
  /** A file dropped on a task, as the bytes the page read (never a path): checked, copied and queued as a picked one. */
  'attachment:drop': { input: attachmentDropInputSchema, output: attachmentAddedSchema },
  /** Opens one with the system's default app (downloaded first when online); `not-safe` when its bytes or name say it runs code. */
  'attachment:open': { input: attachmentOpenInputSchema, output: z.null() },
  /** The attachments' cache: its size (settings.json) and what the signed-in account keeps (main/settings/settings-handlers.ts). */
  'attachment-cache:get': { input: noInput, output: attachmentCacheSchema },
  /** A new size, used from the next fill on (the least recently opened evicted past it). */
  'attachment-cache:set': { input: attachmentCacheSetInputSchema, output: attachmentCacheSchema },
  /** Projects, teams with sprints, goals, sections (with their counts), members and tags. */
  'workspace:get': { input: noInput, output: workspaceSchema },
  /** A project's milestones in its order, with progress counted over the mirrored tasks (offline edits included). */
  'milestones:list': {
    input: z.strictObject({ project_id: idSchema }),
    output: z.array(milestoneSummarySchema),
  },
  /** Saved views the person can read, by name, and their pins in pin order, waiting changes applied. */
  'views:sidebar': { input: noInput, output: viewSidebarSchema },
  /** A view's rows from the mirror with its filters and sort; a view with filters this version does not know is unavailable. */
  'views:rows': { input: viewRowsRequestSchema, output: viewRowsSchema },
  'sync:status': { input: noInput, output: syncStatusSchema },
  /** Starts a sync now (push, pull, push); answers when it started, progress comes as `sync:status-changed`. */
  'sync:now': { input: noInput, output: z.null() },

  // What waits to be sent, and conflicts (main/ipc/outbox-handlers.ts). Actions emit `mirror:changed` and push.
  /** Every operation not yet accepted: queued, sending, conflict, failed or blocked, oldest first. */
  'outbox:list': { input: noInput, output: pendingChangesSchema },
  /** Sends a failed or blocked change again (with `patch` over its values); refused otherwise (`not-retryable`). */
  'outbox:retry': { input: retryInputSchema, output: pendingChangeSchema },
  /** Gives a change up (its conflicts go with it); refused while it is being sent (`not-discardable`). */
  'outbox:discard': { input: z.strictObject({ op_id: localIdSchema }), output: z.null() },
  /** A task's (or another kind's resource's) open conflicts per field, with what merged cleanly; null when it has none. */
  'conflicts:get': {
    input: conflictTargetSchema,
    output: conflictViewSchema.nullable(),
  },
  /** Settles conflicts of one change (keep mine, take theirs, or a value); the change is pushed against the current ETag. */
  'conflicts:resolve': { input: resolveInputSchema, output: resolvedSchema },

  // Sync made visible (main/notifications/visibility-handlers.ts).
  /** The account's sync log, newest first, filtered by words, levels and kinds. */
  'sync-log:query': { input: syncLogQuerySchema, output: syncLogPageSchema },
  /** The redacted diagnostics report of the account's sync log; main also writes it to the clipboard. */
  'sync-log:copy-diagnostics': {
    input: z.strictObject({ account_id: localIdSchema.nullable().optional() }).optional(),
    output: diagnosticsSchema,
  },
  'notification-settings:get': { input: noInput, output: notificationSettingsSchema },
  /** Changes the given settings (kinds and quiet hours field by field); answers all of them. */
  'notification-settings:set': { input: notificationSettingsPatchSchema, output: notificationSettingsSchema },
  /** Every account for the account panel: state and why, counts, last checked and changed per collection. */
  'sync:accounts': { input: noInput, output: syncAccountsSchema },
  /** Stops every account's polling and pushes until `sync:resume` (edits keep queueing locally). */
  'sync:pause': { input: noInput, output: syncPausedSchema },
  'sync:resume': { input: noInput, output: syncPausedSchema },

  // Updates (main/updates/): the downloaded update and what the person is told.
  'updates:status': { input: noInput, output: updateStatusSchema },
  /** "Restart to update": installs once edits being sent are through (answers `waiting`, then the app restarts). */
  'updates:restart': { input: noInput, output: updateStatusSchema },

  // Links that open tasks (main/links/link-service.ts).
  /** The link the app was last opened with, handed over once (announced by `link:received`); null when none waits. */
  'link:take': { input: noInput, output: linkRequestSchema.nullable() },
  /** Puts the task's svc-desktop:// link on the clipboard and answers it; `link-unavailable` when no link can name it. */
  'task:copy-link': {
    input: taskIdInputSchema,
    output: copiedLinkSchema,
  },
} satisfies Record<string, { input: z.ZodType; output: z.ZodType; envelope?: z.ZodType }>;

export const eventChannels = {
  'settings:changed': rendererSettingsSchema,
  /** What `app:opening` answers, when it changes. */
  'app:opening-changed': openingSchema,
  'accounts:changed': accountListSchema,
  'sync:status-changed': syncStatusSchema,
  'mirror:changed': mirrorChangedSchema,
  /** A desktop notification was clicked: show this task. */
  'notification:open': notificationOpenSchema,
  'updates:status-changed': updateStatusSchema,
  /** The app was opened with a link: take it with `link:take` (so a page still loading misses none). */
  'link:received': z.null(),
  /** An attachment's upload on its way: bytes sent of the total, a few times a second. */
  'attachment:upload-progress': attachmentUploadProgressSchema,
} satisfies Record<string, z.ZodType>;

export type InvokeChannel = keyof typeof invokeChannels;
export type EventName = keyof typeof eventChannels;

/** What the renderer passes. */
export type InvokeInput<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['input']>;
/** What the renderer receives. */
export type InvokeOutput<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['output']>;
/** What a handler in main receives (the parsed input). */
export type HandlerInput<C extends InvokeChannel> = z.output<(typeof invokeChannels)[C]['input']>;
/** What a handler in main returns (parsed by the output schema before it leaves). */
export type HandlerOutput<C extends InvokeChannel> = z.input<(typeof invokeChannels)[C]['output']>;
/** What main passes to `emit`. */
export type EventPayloadInput<E extends EventName> = z.input<(typeof eventChannels)[E]>;
/** What a renderer listener receives. */
export type EventPayload<E extends EventName> = z.output<(typeof eventChannels)[E]>;

/** Channels whose input may be left out are called as `invoke('app:info')`. */
export type InvokeArgs<C extends InvokeChannel> =
  undefined extends InvokeInput<C> ? [input?: InvokeInput<C>] : [input: InvokeInput<C>];

/**
 * The error `invoke` rejects with when main answers `{ok: false}`. Branch on
 * `type` (a `GateErrorType` from ./transport, or the handler's own type, such
 * as `url-refused`); `message` is the human text.
 */
export interface BridgeError extends Error {
  readonly name: 'BridgeError';
  readonly type: string;
  /** The channel that was called. */
  readonly channel: string;
}

/** `window.svc`: the only thing the preload puts on the page. */
export interface SvcBridge {
  invoke<C extends InvokeChannel>(channel: C, ...input: InvokeArgs<C>): Promise<InvokeOutput<C>>;
  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

export function isInvokeChannel(name: string): name is InvokeChannel {
  return Object.hasOwn(invokeChannels, name);
}

export function isEventName(name: string): name is EventName {
  return Object.hasOwn(eventChannels, name);
}

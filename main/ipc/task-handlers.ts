// The task screens' calls, answered from the current account's mirror and
// never from the network: the list in the service's vocabulary (keyset pages
// and counts), one task, its edits (applied at once, queued for the server),
// the workspace's collections with their counts, and cached activity.
// No Electron: main and the end-to-end host register the same map.
import type { Mirror } from '../../db/mirror';
import { NotInMirrorError } from '../../db/mirror-errors';
import { projectMilestones } from '../../db/read-models/milestone-list';
import { viewRows } from '../../db/read-models/view-rows';
import { viewSidebar } from '../../db/read-models/view-sidebar';
import type { FiledTask } from '../../db/tasks/task-filing';
import { taskSyncState, taskWaitsOn, WaitingMarks } from '../../db/tasks/task-marks';
import { type WaitsOn, waitsOnFields } from '../../db/outbox/outbox-waits';
import type { WaitsOnView } from '../../ipc/outbox-schemas';
import { taskFamily } from '../../db/read-models/task-family';
import { taskActivity, workspaceCollections } from '../../db/read-models/workspace';
import { writeWhenFree } from '../../db/write-when-free';
import { nextTurnFirst } from '../../db/next-turn';
import { pickFields } from '../../db/tasks/bulk-task-change';
import { asApplied } from '../../db/tasks/task-overlay';
import { undoHistoryOf } from '../../db/undo/undo-history';
import { sameJson } from '../../db/outbox/outbox-types';
import { TASK_FILTER_KEYS } from '../../protocol/task-list-query';
import type { Task } from '../../protocol/task';
import { textOf } from '../../protocol/wire-fields';
import type { IpcGate, IpcHandlers } from './gate';
import { IpcHandlerError } from './gate';
import { TagsInUse } from './tags-in-use';
import type { ViewRowsAnswer, ViewSidebar } from '../../ipc/view-schemas';
import type {
  FiledTasks,
  MilestoneSummary,
  MirrorChanged,
  TaskActivity,
  TaskCount,
  TaskDetail,
  TaskListQueryInput,
  TaskPage,
  TaskRow,
  Workspace,
} from '../../ipc/screen-schemas';

/** The signed-in account whose mirror the screens show. */
export interface ActiveMirror {
  readonly accountId: string;
  readonly mirror: Mirror;
  readonly me: { readonly username: string; readonly user_id: string };
  /** Writes are refused by the service for this account (test token, missing scope). */
  readonly readOnly: boolean;
  /** Kinds (outbox entity types) this sign-in may not write, with the scope each lacks; absent: none. */
  readonly readOnlyKinds?: ReadonlyMap<string, string>;
  /**
   * One page of a saved view's rows from the service (SyncEngine.serviceViewRows), for a view whose
   * filters this version does not know; null when offline or not given. Absent: never asked.
   */
  serviceViewRows?(
    viewId: string,
    page: { after: string | null; limit: number },
  ): Promise<{ items: Task[]; next: string | null } | null>;
  /**
   * Brings an attachment's content into the account's private files (SyncEngine.attachmentContent);
   * false when it cannot be downloaded now (offline, stopped). Absent: never downloaded.
   */
  attachmentContent?(attachmentId: string, sha256: string): Promise<boolean>;
  /** The outbox changed (an edit queued, or one folded back to nothing): the sync side pushes soon, the status recounts. */
  edited(): void;
  /**
   * The task is on screen: the sync engine fetches its comments and history,
   * behind (SyncEngine.refreshTaskActivity); `mirror:changed` tells when they landed.
   */
  refreshActivity(taskId: string): void;
}

export interface TaskHandlerDependencies {
  /** The account the window shows, or null before sign-in. */
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
  /**
   * Tells of every `mirror:changed` sent by others (pulls, pushes): the
   * workspace's counts and tags are kept until tasks change. Without it they
   * are read afresh on every call.
   */
  readonly onMirrorChanged?: (listener: (change: MirrorChanged) => void) => () => void;
  /** Now, for `overdue` and the current sprint (tests pass a fixed one). */
  readonly now?: () => Date;
}

const DEFAULT_FILED_LIMIT = 2000;

/** The query's pairs as the service's query string would carry them (the parser then checks every value). */
export function taskQueryPairs(query: TaskListQueryInput): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of TASK_FILTER_KEYS) {
    const value = query.filter[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) {
      // An empty choice restricts nothing (the screens send [] when every value is unticked).
      for (const item of value) pairs.push([`filter[${key}]`, item]);
    } else {
      pairs.push([`filter[${key}]`, String(value)]);
    }
  }
  pairs.push(['sort_by', query.sort_by], ['sort_order', query.sort_order]);
  return pairs;
}

/** A list item or a filed task as a row (a list item has every field a row shows). */
function rowOf(item: FiledTask, marks: WaitingMarks): TaskRow {
  return {
    task_id: item.task_id,
    title: item.title,
    status: item.status,
    priority: item.priority,
    assignee: item.assignee,
    project_id: item.project_id,
    team_id: item.team_id,
    section_id: item.section_id,
    sprint_id: item.sprint_id,
    goal_id: item.goal_id,
    tags: item.tags,
    due_date: item.due_date,
    start_date: item.start_date,
    created_at: item.created_at,
    task_type: item.task_type,
    review: item.review,
    position: item.position,
    sync_mark: marks.of(item.task_id, item.pending),
    ...heldBehind(marks.waitsOn(item.task_id)),
  };
}

/** A task as the service sent it (a view's rows read online), as a row: no change of it waits here. */
function rowOfServed(task: Task): TaskRow {
  const text = (value: unknown) => textOf(value);
  return {
    task_id: task.task_id,
    title: text(task.title) ?? task.task_id,
    status: text(task.status) ?? 'not_started',
    priority: text(task.priority),
    assignee: text(task.assignee),
    project_id: text(task.project_id),
    team_id: text(task.team_id),
    section_id: text(task.section_id),
    sprint_id: text(task.sprint_id),
    goal_id: text(task.goal_id),
    tags: Array.isArray(task.tags) ? task.tags.filter((tag): tag is string => typeof tag === 'string') : [],
    due_date: text(task.due_date),
    start_date: text(task.start_date),
    created_at: text(task.created_at),
    task_type: text(task.task_type),
    review: text(task.review),
    position: typeof task.position === 'number' ? task.position : null,
    sync_mark: null,
  };
}

/** A task's `waits_on`, present only while a queued edit of it is held behind a stopped change. */
function heldBehind(waits: WaitsOn | null): { waits_on?: WaitsOnView } {
  return waits === null ? {} : { waits_on: waitsOnFields(waits) };
}

/** The signed-in account, or the `signed-out` error every call answers without one. */
export function signedInAccount(active: () => ActiveMirror | null): ActiveMirror {
  const account = active();
  if (account === null) throw new IpcHandlerError('signed-out', 'No account is signed in.');
  return account;
}

/**
 * The signed-in account when it may write, else `read-only`, saying what it
 * cannot change (`tasks`, `comments`…); with `kind` (an outbox entity type),
 * `insufficient-scope` when its sign-in lacks that kind's scope: nothing known
 * to be refused is queued.
 */
export function writableAccount(
  active: () => ActiveMirror | null,
  what: string,
  kind?: string,
): ActiveMirror {
  const account = signedInAccount(active);
  if (account.readOnly) {
    throw new IpcHandlerError(
      'read-only',
      `This account can read but not change ${what} (a test token, or one without write access).`,
    );
  }
  const scope = kind === undefined ? undefined : account.readOnlyKinds?.get(kind);
  if (scope !== undefined) {
    throw new IpcHandlerError(
      'insufficient-scope',
      `This sign-in may not change ${what} (it lacks ${scope}); sign in again to allow it.`,
    );
  }
  return account;
}

export function taskHandlers(dependencies: TaskHandlerDependencies): IpcHandlers {
  const now = dependencies.now ?? (() => new Date());
  const today = () => now().toISOString().slice(0, 10);
  /** The tags in use, kept until the tasks change. */
  const tags = new TagsInUse();
  dependencies.onMirrorChanged?.((change) => {
    if (change.collections.includes('tasks')) tags.changed();
  });

  const active = (): ActiveMirror => signedInAccount(dependencies.active);
  const writable = (): ActiveMirror => writableAccount(dependencies.active, 'tasks', 'task');

  /** Per window and list, its count still running, and for which query. */
  const runningCounts = new Map<string, { query: string; stop: AbortController }>();

  /**
   * The window's list asked for `query`: its count still running stops when
   * that count is of another query, or when a new count takes over.
   */
  function listAsked(slot: string, query: string, newCount: boolean): void {
    const running = runningCounts.get(slot);
    if (running === undefined || (!newCount && running.query === query)) return;
    stopCount(slot);
  }

  /** Stops the slot's running count, if any: its answer is null. */
  function stopCount(slot: string): void {
    runningCounts.get(slot)?.stop.abort();
    runningCounts.delete(slot);
  }

  /**
   * Per window and list, the query its latest tasks:query call asked: a call
   * of another query still waiting is superseded (the person typed on), so a
   * keystroke's query never waits behind an older one's, nor is answered after it.
   */
  const newestQueries = new Map<string, string>();

  function stillNewest(slot: string, query: string): void {
    if (newestQueries.get(slot) !== query) {
      throw new IpcHandlerError('superseded', 'A newer query of this list replaced this one.');
    }
  }

  function announce(account: ActiveMirror, taskIds: string[] | null, collections = ['tasks']): void {
    tags.changed();
    dependencies.emit('mirror:changed', {
      account_id: account.accountId,
      collections,
      task_ids: taskIds,
      remapped: [],
    });
  }

  /**
   * The task and the parents it is or was under: a parent's editor shows its
   * sub-tasks' progress, so their change is its change too.
   */
  function withParents(mirror: Mirror, taskId: string, before: (string | null)[] = []): string[] {
    const ids = [taskId, ...before, parentOf(mirror, taskId)];
    return [...new Set(ids.filter((id): id is string => id !== null))];
  }

  function parentOf(mirror: Mirror, taskId: string): string | null {
    return textOf(mirror.tasks.get(taskId)?.task.parent_task_id);
  }

  function detail(account: ActiveMirror, taskId: string): TaskDetail {
    const found = account.mirror.tasks.get(taskId);
    if (found === null || found.hidden) throw new NotInMirrorError('task', taskId);
    const { mark, pendingFields } = taskSyncState(account.mirror, taskId, found.pending);
    return {
      task: found.task as TaskDetail['task'],
      sync_mark: mark,
      pending_fields: pendingFields,
      server_gone: found.serverGone,
      family: taskFamily(account.mirror, taskId, textOf(found.task.parent_task_id)),
      ...heldBehind(taskWaitsOn(account.mirror, taskId)),
    };
  }

  /**
   * The page `skip` pages on from `first`: `read(cursor)` reads the page at a cursor, `onward(page)`
   * is the cursor of the one after it in the walk's direction (null at the list's end). The cursors
   * passed over are handed back (`skipped`) for the window to ask those pages later. A jump walks up
   * to 40 pages: `between` lets a newer query of the list stop it between them.
   */
  async function pagePassing<Page>(
    first: string | null,
    read: (cursor: string | null) => Promise<Page>,
    onward: (page: Page) => string | null,
    skip: number,
    between: () => Promise<void>,
  ): Promise<{ page: Page; skipped: string[] }> {
    const skipped: string[] = [];
    let page = await read(first);
    for (let passed = 0, cursor = onward(page); passed < skip && cursor !== null; passed++) {
      await between();
      skipped.push(cursor);
      page = await read(cursor);
      cursor = onward(page);
    }
    return { page, skipped };
  }

  return {
    'tasks:query': async (
      { query, after, limit, skip, list, parent, from_end: fromEnd, before },
      { senderId },
    ): Promise<TaskPage> => {
      const pairs = taskQueryPairs(query);
      const asked = JSON.stringify([pairs, parent]);
      const slot = list === undefined ? null : `${senderId}:${list}`;
      if (slot !== null) {
        listAsked(slot, asked, false);
        newestQueries.set(slot, asked);
        // Calls that arrived meanwhile are taken in first: one of a newer query supersedes this one unrun.
        await nextTurnFirst();
        stillNewest(slot, asked);
      }
      const { mirror, me } = active();
      const options = { me: me.username, today: today(), parent };
      const size = limit ?? 200;
      // A page may take steps (a broad search sorts its candidates a slice a step): a newer query of
      // the list stops it between them. Its steps go ahead of other jobs' (counts, the sidebar's,
      // a bulk change's writes): the person waits for these rows.
      const between = async () => {
        await nextTurnFirst();
        if (slot !== null) stillNewest(slot, asked);
      };
      if (fromEnd === true) {
        // Counted from the list's end, towards its start: the last rows of a million come in one
        // call instead of a walk from the top.
        const { page, skipped } = await pagePassing(
          before ?? null,
          (cursor) =>
            mirror.tasks.queryFromEndInSteps(pairs, { ...options, before: cursor, limit: size }, between),
          (read) => (typeof read.before === 'string' ? read.before : null),
          skip ?? 0,
          between,
        );
        const marks = new WaitingMarks(mirror);
        return {
          rows: page.items.map((item) => rowOf(item, marks)),
          next: null,
          skipped,
          ...(page.after === undefined ? {} : { after: page.after }),
          ...(page.before === undefined ? {} : { before: page.before }),
        };
      }
      const { page, skipped } = await pagePassing(
        after ?? null,
        (cursor) => mirror.tasks.queryInSteps(pairs, { ...options, after: cursor, limit: size }, between),
        (read) => read.next,
        skip ?? 0,
        between,
      );
      // A list in this order may be searched next: its places are read meanwhile, in main's turns.
      void mirror.tasks.readPlacesAhead(pairs);
      const marks = new WaitingMarks(mirror);
      return { rows: page.items.map((item) => rowOf(item, marks)), next: page.next, skipped };
    },

    'tasks:count': async ({ query, list, parent }, { senderId, senderGone }): Promise<TaskCount> => {
      const { mirror, me } = active();
      const pairs = taskQueryPairs(query);
      const stop = new AbortController();
      const slot = list === undefined ? null : `${senderId}:${list}`;
      if (slot !== null) {
        const asked = JSON.stringify([pairs, parent]);
        listAsked(slot, asked, true);
        newestQueries.set(slot, asked);
        runningCounts.set(slot, { query: asked, stop });
      }
      try {
        const options = { me: me.username, today: today(), parent };
        // Stopped by the list's next query, or its window closed while it ran (to the tray): nobody reads the answer.
        const stopped = AbortSignal.any([stop.signal, senderGone]);
        return { count: await mirror.tasks.countInSteps(pairs, options, stopped) };
      } finally {
        if (slot !== null && runningCounts.get(slot)?.stop === stop) runningCounts.delete(slot);
      }
    },

    'tasks:list-closed': ({ list }, { senderId }) => {
      const slot = `${senderId}:${list}`;
      stopCount(slot);
      // A page of the list still waiting its turn is not read for nobody either.
      newestQueries.delete(slot);
      return null;
    },

    'tasks:intake-counts': () => active().mirror.tasks.intakeCounts(),

    'tasks:filed': async ({ field, values, limit }): Promise<FiledTasks> => {
      const { mirror } = active();
      const max = limit ?? DEFAULT_FILED_LIMIT;
      const filed = await mirror.tasks.filed(field, values, max);
      const marks = new WaitingMarks(mirror);
      return {
        rows: filed.tasks.map((task) => rowOf(task, marks)),
        truncated: filed.truncated,
      };
    },

    'task:get': ({ task_id }) => detail(active(), task_id),

    // Edits wait for the pull worker's write lock on a timer (writeWhenFree), never freezing the window.
    'task:edit': async ({ task_id, patch }) => {
      const account = writable();
      const change = Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined));
      const parentBefore = parentOf(account.mirror, task_id);
      const shown = account.mirror.tasks.get(task_id)?.task ?? {};
      // What the change does, a milestone its move clears included: its undo puts all of it back.
      const applied = asApplied(shown, change);
      const before = pickFields(shown, applied);
      const queued = await writeWhenFree(account.mirror, () => account.mirror.tasks.edit(task_id, change));
      // Told whatever it queued: an edit back to the server's value drops the change that waited
      // (an Alt+→ undone, a status key pressed back), and the waiting count drops with it.
      account.edited();
      // An edit folded back to the server's value queues nothing, yet is a change the person may undo.
      if (!sameJson(before, applied))
        undoHistoryOf(account.mirror).edited(task_id, before, applied, queued?.opId ?? null);
      announce(account, withParents(account.mirror, task_id, [parentBefore]));
      return detail(account, task_id);
    },

    'task:create': async ({ fields }) => {
      const account = writable();
      const values = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
      const { taskId, opId } = await writeWhenFree(account.mirror, () => account.mirror.tasks.create(values));
      account.edited();
      undoHistoryOf(account.mirror).created(taskId, values, opId);
      announce(account, withParents(account.mirror, taskId));
      return detail(account, taskId);
    },

    'task:delete': async ({ task_id }) => {
      const account = writable();
      const found = account.mirror.tasks.get(task_id);
      if (found === null) throw new NotInMirrorError('task', task_id);
      const parentBefore = parentOf(account.mirror, task_id);
      const deleted = await writeWhenFree(account.mirror, () => account.mirror.tasks.delete(task_id));
      account.edited();
      undoHistoryOf(account.mirror).deleted(task_id, found.task, deleted?.opId ?? null);
      announce(account, withParents(account.mirror, task_id, [parentBefore]));
      return null;
    },

    'task:activity': ({ task_id, refresh }): TaskActivity => {
      const account = active();
      if (refresh === true) account.refreshActivity(task_id);
      return taskActivity(account.mirror, task_id) as TaskActivity;
    },

    'milestones:list': ({ project_id }): MilestoneSummary[] => projectMilestones(active().mirror, project_id),

    'views:sidebar': (): ViewSidebar => viewSidebar(active().mirror),

    'views:rows': async ({ view_id, after, limit }): Promise<ViewRowsAnswer> => {
      const account = active();
      const { mirror, me } = account;
      const page = { after: after ?? null, limit: limit ?? 200 };
      const answer = viewRows(mirror, view_id, { me: me.username, today: today(), ...page });
      if (answer.available) {
        const marks = new WaitingMarks(mirror);
        const rows = answer.page.items.map((item) => rowOf(item, marks));
        return { available: true, source: 'mirror', rows, next: answer.page.next };
      }
      // A newer service's filter: its rows are the service's to answer, while online.
      if (answer.reason !== 'unknown-filters') return answer;
      const served = (await account.serviceViewRows?.(view_id, page)) ?? null;
      if (served === null) return answer;
      return { available: true, source: 'service', rows: served.items.map(rowOfServed), next: served.next };
    },

    'workspace:get': async (): Promise<Workspace> => {
      const { mirror, me, accountId } = active();
      // Counted in short steps when tasks changed since: the sidebar asks again after every change.
      const counts = await mirror.tasks.countFilingsInSteps();
      const collections = workspaceCollections(mirror, today(), counts);
      // The tags as last counted: a recount that finds others tells the window, which asks again.
      const recounted = () =>
        dependencies.emit('mirror:changed', {
          account_id: accountId,
          collections: ['tags'],
          task_ids: [],
          remapped: [],
        });
      return {
        me: { username: me.username, user_id: me.user_id },
        ...collections,
        tags: tags.known(mirror, recounted),
      };
    },
  };
}

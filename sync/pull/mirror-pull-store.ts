// PullStore over the mirror in this thread: each call is one of the mirror's
// synchronous transactions; change lists are translated into the engine's
// ResourceChange shape (created, updated with before/after per field, deleted).
import type { ChangeList, Mirror, RememberedIdentity } from '../../db/mirror';
import type { CommentWatchQuery } from '../../db/tasks/task-openings';
import type { ResourceChange, SyncNotification } from '../events/sync-events';
import { checkedItems } from './deferred-validation';
import type { PageOutcome, PassRecord, PullStore, RemovalOutcome, StoredCollection } from './pull-store';

export function resourceChanges(list: ChangeList): ResourceChange[] {
  const out: ResourceChange[] = [];
  for (const created of list.created) {
    out.push({
      collection: created.collection,
      id: created.id,
      kind: 'created',
      fields: [],
      resource: created.after,
    });
  }
  for (const updated of list.updated) {
    out.push({
      collection: updated.collection,
      id: updated.id,
      kind: 'updated',
      fields: Object.entries(updated.changes).map(([field, change]) => ({
        field,
        before: change.before,
        after: change.after,
      })),
      resource: updated.after,
    });
  }
  for (const deleted of list.deleted) {
    out.push({
      collection: deleted.collection,
      id: deleted.id,
      kind: 'deleted',
      fields: [],
      resource: deleted.before,
    });
  }
  return out;
}

function removalOutcome(list: ChangeList): RemovalOutcome {
  return { changes: resourceChanges(list), parked: list.parkedEdits };
}

function utcDay(now: number): string {
  return new Date(now).toISOString().slice(0, 10);
}

export class MirrorPullStore implements PullStore {
  /**
   * Pages may come with only their envelope checked (in this thread too): the
   * items are checked here, where one that fails is left out and named, not
   * the whole page refused as the API client would.
   */
  readonly validatesItems: boolean = true;

  constructor(
    private readonly mirror: Mirror,
    private readonly now: () => number = Date.now,
  ) {}

  ready(): Promise<void> {
    return Promise.resolve();
  }

  pass(collection: StoredCollection, scope: string): Promise<PassRecord | null> {
    return settle(() => {
      const state = this.mirror.passes.walkState(collection, scope);
      if (!state) return null;
      return {
        passNo: state.passNo,
        state: state.state,
        completedOnce: state.completedOnce,
        resume: state.resume,
        pages: state.pages,
        chains: state.chains,
      };
    });
  }

  beginPass(
    collection: StoredCollection,
    scope: string,
    options: { partial: boolean; restart: boolean },
  ): Promise<{ passNo: number }> {
    return settle(() => {
      const state = options.restart
        ? this.mirror.passes.restart(collection, scope, { partial: options.partial })
        : this.mirror.passes.begin(collection, scope, { partial: options.partial });
      return { passNo: state.passNo };
    });
  }

  applyPage(
    collection: StoredCollection,
    scope: string,
    partial: boolean,
    page: Parameters<PullStore['applyPage']>[3],
  ): Promise<PageOutcome> {
    return settle(() => {
      const checked =
        page.uncheckedFrom === undefined
          ? { items: page.items, skipped: [] }
          : checkedItems(page.uncheckedFrom, page.items, page.nextCursor);
      const applied = this.mirror.passes.applyPage({
        collection,
        scope,
        partial,
        pageIndex: page.pageIndex,
        cursorSent: page.cursorSent,
        etag: page.etag,
        nextCursor: page.nextCursor,
        items: checked.items,
        skipped: [...(page.skipped ?? []), ...checked.skipped],
      });
      return {
        changes: page.announce ? resourceChanges(applied.changes) : [],
        rejected: applied.rejected.map((r) => ({ id: r.id, field: r.field, reason: r.reason })),
      };
    });
  }

  reusePages(collection: StoredCollection, scope: string, pageIndexes: readonly number[]): Promise<void> {
    return settle(() => {
      for (const pageIndex of pageIndexes) this.mirror.passes.reusePage(collection, scope, pageIndex);
    });
  }

  completePass(collection: StoredCollection, scope: string, lastPageIndex: number): Promise<RemovalOutcome> {
    return settle(() => removalOutcome(this.mirror.passes.complete(collection, scope, lastPageIndex)));
  }

  applyTask(task: Record<string, unknown>, etag: string | null): Promise<ResourceChange[]> {
    return settle(() => resourceChanges(this.mirror.tasks.applyServerCopy(task, etag)));
  }

  removeTask(taskId: string): Promise<RemovalOutcome> {
    return settle(() => removalOutcome(this.mirror.tasks.removeServerCopy(taskId)));
  }

  task(taskId: string): Promise<{ server: Record<string, unknown> | null; etag: string | null } | null> {
    return settle(() => {
      const row = this.mirror.tasks.get(taskId);
      return row ? { server: row.server, etag: row.etag } : null;
    });
  }

  ids(collection: Exclude<StoredCollection, 'tasks'>, scope?: string): Promise<string[]> {
    return settle(() => this.mirror.collections.ids(collection, scope));
  }

  resources(
    collection: Exclude<StoredCollection, 'tasks'>,
    scope?: string,
  ): Promise<Record<string, unknown>[]> {
    return settle(() => this.mirror.collections.list(collection, scope));
  }

  commentWatchTaskIds(query: CommentWatchQuery): Promise<string[]> {
    return settle(() => this.mirror.openings.commentWatch(query));
  }

  commentsChecked(taskIds: readonly string[], at: string): Promise<void> {
    return settle(() => this.mirror.openings.commentsChecked(taskIds, at));
  }

  newestTaskDay(): Promise<string | null> {
    return settle(() => {
      const query = new URLSearchParams({ sort_by: 'created_at', sort_order: 'desc' });
      const page = this.mirror.tasks.query(query, { me: '', today: utcDay(this.now()), limit: 1 });
      const createdAt = page.items[0]?.created_at ?? null;
      return createdAt === null ? null : createdAt.slice(0, 10);
    });
  }

  addNotifications(forUser: string, notifications: readonly SyncNotification[]): Promise<void> {
    return settle(() => {
      if (notifications.length === 0) return;
      this.mirror.feed.add(
        notifications.map((n) => ({
          kind: n.kind,
          entityType: 'task',
          entityId: n.task_id,
          forUser,
          summary: { title: n.title, by: n.by, ...n.detail },
          key: n.key,
        })),
      );
    });
  }

  setAccount(account: { orgId: string; username: string }): Promise<void> {
    return settle(() => this.mirror.identity.setAccount(account));
  }

  rememberedIdentity(): Promise<RememberedIdentity | null> {
    return settle(() => this.mirror.identity.remembered());
  }

  rememberIdentity(identity: RememberedIdentity): Promise<void> {
    return settle(() => this.mirror.identity.remember(identity));
  }
}

/** Runs a synchronous mirror call, turning a throw into a rejected promise. */
function settle<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passes the mirror's typed error on as it is
    return Promise.reject(error);
  }
}

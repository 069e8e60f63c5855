// One account's notifier: listens to its sync engine, collects what one poll
// brought (new change feed entries, conflicts push opened, our own pushes) and,
// when the poll ends, asks notification-decisions what to show. Showing is the
// host's job (main/notifications); clicking marks the feed entries seen.
import type { ReferenceNames } from '../../db/read-models/referenced-names';
import { isFirstPass } from '../../db/passes/sync-passes';
import type { SyncEvent } from '../../sync/events/sync-events';
import {
  candidateOfFeedEntry,
  type ConflictCandidate,
  type ConflictSides,
  decideNotifications,
  type DesktopNotification,
  type NotificationDecision,
} from './notification-decisions';
import type { NotificationSettings } from './notification-settings';

/** What the notifier reads of a mirror; db/'s Mirror has it. */
export interface NotifierMirror {
  /** Which task a comment's operation is on (its parent); a section's name as the operation last knew it. */
  readonly outbox: {
    op(opId: string): {
      parentId: string | null;
      baseValues: Readonly<Record<string, unknown>>;
      patch: Readonly<Record<string, unknown>>;
    };
    /** The open conflicts, for the values of the fields a conflict names. */
    conflicts(state: 'open'): readonly { opId: string; field: string; mine: unknown; theirs: unknown }[];
  };
  readonly feed: {
    list(
      forUser: string,
      options?: { unseenOnly?: boolean; limit?: number },
    ): readonly {
      id: number;
      kind: string;
      entityType: string;
      entityId: string;
      summary: Record<string, unknown>;
    }[];
    markSeen(ids: readonly number[]): void;
  };
  readonly tasks: { get(taskId: string): { task: Readonly<Record<string, unknown>> } | null };
  readonly passes: { state(collection: 'tasks', scope?: string): { completedOnce: boolean } | null };
}

export interface NotifierOptions {
  accountId: string;
  me: { username: string; user_id: string };
  mirror: NotifierMirror;
  /** Read at each decision, so a change in the settings screen applies to the next poll. */
  settings: () => NotificationSettings;
  display: (notifications: readonly DesktopNotification[]) => void;
  /** Milliseconds since the epoch; default Date.now. */
  now?: () => number;
  /** The local time zone's offset east of UTC at an instant (minutes); default the machine's. */
  utcOffsetMinutes?: (nowMs: number) => number;
  groupAbove?: number;
  echoWindowMs?: number;
  /**
   * Names of what ids point at (db/referenced-names over the same mirror): a conflict on a field
   * that points at something (a sprint, a goal) tells both sides by name. Without it, only the fields.
   */
  names?: () => ReferenceNames;
}

/** Feed entries read per poll at most (a larger burst is summarised anyway). */
const FEED_READ_LIMIT = 500;

export class Notifier {
  private lastFeedId: number;
  private inSync = false;
  private firstSync = false;
  private conflicts: ConflictCandidate[] = [];
  private ownPushes: { taskId: string; at: number }[] = [];
  private readonly now: () => number;

  constructor(private readonly options: NotifierOptions) {
    this.now = options.now ?? Date.now;
    // What the feed held before this run is not announced again (the app lists it as unseen).
    this.lastFeedId = options.mirror.feed.list(options.me.username, { limit: 1 })[0]?.id ?? 0;
  }

  /** Feed it every event of the account's engine. */
  handle(event: SyncEvent): void {
    switch (event.type) {
      case 'sync-started':
        if (!this.inSync) {
          this.inSync = true;
          this.firstSync = event.tier === 'full' && this.isFirstFullSync();
        }
        return;
      case 'pushed':
        this.ownPushes.push({ taskId: event.entityId, at: this.now() });
        if (event.serverId !== event.entityId)
          this.ownPushes.push({ taskId: event.serverId, at: this.now() });
        return;
      case 'conflict': {
        if (event.entityType !== 'task' && event.entityType !== 'comment') {
          // A section (or another kind not on a task) is no task to open: a click opens its conflict.
          this.conflicts.push({
            taskId: '',
            title: this.nameOf(event.opId),
            resource: { entityType: event.entityType, entityId: event.entityId },
            conflict: event.conflict,
            fields: event.fields,
            ...this.namedSides(event.opId, event.fields, null),
          });
          if (!this.inSync) this.flush();
          return;
        }
        // A comment's conflict is told on its task (the one a click opens).
        const taskId =
          event.entityType === 'comment' ? this.taskOfComment(event.opId, event.entityId) : event.entityId;
        const title = this.options.mirror.tasks.get(taskId)?.task.title;
        this.conflicts.push({
          taskId,
          title: typeof title === 'string' ? title : '',
          conflict: event.conflict,
          fields: event.fields,
          ...this.namedSides(event.opId, event.fields, event.entityType === 'comment' ? taskId : null),
        });
        // A push outside a sync (after a local edit) ends with no sync-finished: decide now.
        if (!this.inSync) this.flush();
        return;
      }
      case 'changes':
        // Changes outside a sync come from revalidating the open task.
        if (!this.inSync) this.flush();
        return;
      case 'sync-finished':
      case 'sync-failed':
        this.inSync = false;
        this.flush();
        this.firstSync = false;
        return;
      default:
        return;
    }
  }

  /** A resource's name as its operation knows it (the server's, else mine); '' when there is none. */
  private nameOf(opId: string): string {
    try {
      const op = this.options.mirror.outbox.op(opId);
      const name = op.baseValues.name ?? op.patch.name;
      return typeof name === 'string' ? name : '';
    } catch {
      return '';
    }
  }

  /**
   * Both sides of each conflicting field that points at something, by name
   * (the id when none is known, "none" when unset); nothing without `names`.
   */
  private namedSides(
    opId: string,
    fields: readonly string[],
    taskId: string | null,
  ): { sides?: ConflictSides[] } {
    const names = this.options.names?.();
    if (names === undefined) return {};
    const words = (field: string, value: unknown): string | null => {
      if (value === null || value === undefined) return 'none';
      if (typeof value !== 'string') return null;
      const name = names(field, value, taskId);
      return name ?? (field.endsWith('_id') ? value : null);
    };
    const sides = this.options.mirror.outbox
      .conflicts('open')
      .filter((c) => c.opId === opId && fields.includes(c.field))
      .flatMap((c) => {
        const mine = words(c.field, c.mine);
        const theirs = words(c.field, c.theirs);
        // Only fields that point at something: a title or a status says itself.
        if (mine === null || theirs === null || (!c.field.endsWith('_id') && c.field !== 'assignee'))
          return [];
        return [{ field: c.field, mine, theirs }];
      });
    return sides.length > 0 ? { sides } : {};
  }

  private taskOfComment(opId: string, commentId: string): string {
    try {
      return this.options.mirror.outbox.op(opId).parentId ?? commentId;
    } catch {
      // The operation went (dropped meanwhile): the comment's id is all there is to tell.
      return commentId;
    }
  }

  /** Decides on what arrived since the last decision and displays it; null when nothing arrived. */
  flush(): NotificationDecision | null {
    const { mirror, me } = this.options;
    const entries = mirror.feed
      .list(me.username, { limit: FEED_READ_LIMIT })
      .filter((entry) => entry.id > this.lastFeedId);
    const conflicts = this.conflicts;
    this.conflicts = [];
    if (entries.length === 0 && conflicts.length === 0) return null;
    this.lastFeedId = Math.max(this.lastFeedId, ...entries.map((e) => e.id));
    const nowMs = this.now();
    this.ownPushes = this.ownPushes.filter((p) => nowMs - p.at <= (this.options.echoWindowMs ?? 120_000));
    const decision = decideNotifications({
      accountId: this.options.accountId,
      me,
      changes: entries
        .slice()
        .reverse()
        .flatMap((entry) => candidateOfFeedEntry(entry) ?? []),
      conflicts,
      firstSync: this.firstSync,
      ownPushes: this.ownPushes,
      settings: this.options.settings(),
      nowMs,
      utcOffsetMinutes: (this.options.utcOffsetMinutes ?? machineUtcOffset)(nowMs),
      ...(this.options.groupAbove !== undefined ? { groupAbove: this.options.groupAbove } : {}),
      ...(this.options.echoWindowMs !== undefined ? { echoWindowMs: this.options.echoWindowMs } : {}),
    });
    if (decision.markSeen.length > 0) mirror.feed.markSeen(decision.markSeen);
    if (decision.show.length > 0) this.options.display(decision.show);
    return decision;
  }

  /** The person clicked a notification: what it stood for is seen. */
  opened(notification: DesktopNotification): void {
    if (notification.feedIds.length > 0) this.options.mirror.feed.markSeen(notification.feedIds);
  }

  /** Changes on the person's tasks they have not seen (the tray's mark). */
  unseenCount(limit = 999): number {
    return this.options.mirror.feed.list(this.options.me.username, { unseenOnly: true, limit }).length;
  }

  private isFirstFullSync(): boolean {
    return isFirstPass(this.options.mirror.passes.state('tasks', ''));
  }
}

export function machineUtcOffset(nowMs: number): number {
  return -new Date(nowMs).getTimezoneOffset();
}

// Notifications about remote changes (what changed, for whom, seen or not),
// written by the sync engine from the change lists pulls return (`mirror.feed`).
// It is also the person's inbox: each entry keyed by the change it stands for,
// so meeting a change again (a re-poll, a restart) adds nothing, and kept for
// INBOX_DAYS, older entries pruned as new ones arrive.
import type { Database } from 'better-sqlite3';
import type { MirrorTransactions } from '../mirror-transactions';
import type { ChangeFeedRow } from '../schema';

/** How long the inbox keeps what happened. */
export const INBOX_DAYS = 90;
const DAY_MS = 86_400_000;

export interface NewNotification {
  /** e.g. 'task-assigned', 'task-status-changed', 'task-commented', 'task-mentioned'. */
  kind: string;
  entityType: string;
  entityId: string;
  /** The username it is for. */
  forUser: string;
  summary: Record<string, unknown>;
  createdAt?: string;
  /** The change it stands for: a second entry with the same key for the same person is not added. */
  key?: string;
}

export interface Notification {
  id: number;
  kind: string;
  entityType: string;
  entityId: string;
  forUser: string;
  summary: Record<string, unknown>;
  createdAt: string;
  seenAt: string | null;
}

function notificationOf(row: ChangeFeedRow): Notification {
  return {
    id: row.id,
    kind: row.kind,
    entityType: row.entity_type,
    entityId: row.entity_id,
    forUser: row.for_user,
    summary: JSON.parse(row.summary) as Record<string, unknown>,
    createdAt: row.created_at,
    seenAt: row.seen_at,
  };
}

export class ChangeFeed {
  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
  ) {}

  /**
   * Stores notifications in one transaction; returns the ids of those added (one
   * whose key is already stored for its person is left out). Prunes what is older
   * than INBOX_DAYS.
   */
  add(items: readonly NewNotification[]): number[] {
    return this.tx.write(() => {
      const at = this.tx.now();
      const insert = this.db.prepare(
        `INSERT OR IGNORE INTO change_feed (created_at, kind, entity_type, entity_id, for_user, summary, change_key)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      );
      const ids = items.flatMap((n) => {
        const result = insert.run(
          n.createdAt ?? at,
          n.kind,
          n.entityType,
          n.entityId,
          n.forUser,
          JSON.stringify(n.summary),
          n.key ?? null,
        );
        return result.changes === 0 ? [] : [Number(result.lastInsertRowid)];
      });
      this.pruneBefore(new Date(Date.parse(at) - INBOX_DAYS * DAY_MS).toISOString());
      return ids;
    });
  }

  /** Drops entries created before `instant` (ISO); answers how many went. */
  pruneBefore(instant: string): number {
    return this.tx.write(
      () => this.db.prepare('DELETE FROM change_feed WHERE created_at < ?').run(instant).changes,
    );
  }

  /** A user's notifications, newest first. */
  list(forUser: string, options: { unseenOnly?: boolean; limit?: number } = {}): Notification[] {
    return this.tx.read(() => {
      const rows = this.db
        .prepare(
          `SELECT * FROM change_feed WHERE for_user = ? ${options.unseenOnly ? 'AND seen_at IS NULL' : ''}
            ORDER BY id DESC LIMIT ?`,
        )
        .all(forUser, options.limit ?? 100) as ChangeFeedRow[];
      return rows.map(notificationOf);
    });
  }

  /** How many of a user's entries are unseen (the inbox's count in the sidebar and the tray). */
  unseenCount(forUser: string): number {
    return this.tx.read(
      () =>
        (
          this.db
            .prepare('SELECT count(*) AS n FROM change_feed WHERE for_user = ? AND seen_at IS NULL')
            .get(forUser) as { n: number }
        ).n,
    );
  }

  markSeen(ids: readonly number[]): void {
    this.tx.write(() => {
      const at = this.tx.now();
      const update = this.db.prepare('UPDATE change_feed SET seen_at = ? WHERE id = ? AND seen_at IS NULL');
      for (const id of ids) update.run(at, id);
    });
  }

  /** Every entry of a user's seen (the inbox's "mark all read"); answers how many were unseen. */
  markAllSeen(forUser: string): number {
    return this.tx.write(
      () =>
        this.db
          .prepare('UPDATE change_feed SET seen_at = ? WHERE for_user = ? AND seen_at IS NULL')
          .run(this.tx.now(), forUser).changes,
    );
  }
}

// Notifications about remote changes (what changed, for whom, seen or not),
// written by the sync engine from the change lists pulls return (`mirror.feed`).
import type { Database } from 'better-sqlite3';
import type { MirrorTransactions } from '../mirror-transactions';
import type { ChangeFeedRow } from '../schema';

export interface NewNotification {
  /** e.g. 'task-assigned', 'task-status-changed', 'task-commented'. */
  kind: string;
  entityType: string;
  entityId: string;
  /** The username it is for. */
  forUser: string;
  summary: Record<string, unknown>;
  createdAt?: string;
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

  /** Stores notifications in one transaction; returns their ids. */
  add(items: readonly NewNotification[]): number[] {
    return this.tx.write(() => {
      const at = this.tx.now();
      const insert = this.db.prepare(
        `INSERT INTO change_feed (created_at, kind, entity_type, entity_id, for_user, summary) VALUES (?, ?, ?, ?, ?, ?)`,
      );
      return items.map((n) =>
        Number(
          insert.run(
            n.createdAt ?? at,
            n.kind,
            n.entityType,
            n.entityId,
            n.forUser,
            JSON.stringify(n.summary),
          ).lastInsertRowid,
        ),
      );
    });
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

  markSeen(ids: readonly number[]): void {
    this.tx.write(() => {
      const at = this.tx.now();
      const update = this.db.prepare('UPDATE change_feed SET seen_at = ? WHERE id = ? AND seen_at IS NULL');
      for (const id of ids) update.run(at, id);
    });
  }
}

// `mirror.drafts`: what a person started writing and has not sent (a comment,
// a reply, a new task's fields), kept in the account's mirror file so that it
// outlives a closed panel, a switch of account and a restart, until it is sent
// or discarded. The body is the caller's JSON, kept as given.
import type { Database } from 'better-sqlite3';
import type { MirrorTransactions } from '../mirror-transactions';

export type DraftKind = 'comment' | 'reply' | 'new-task';

/** Which draft: a comment on a task, a reply to one of its comments, or the new task being written. */
export interface DraftKey {
  kind: DraftKind;
  /** The task it is on; '' for a new task. */
  taskId: string;
  /** The comment a reply answers; '' otherwise. */
  replyTo: string;
}

export interface StoredDraft extends DraftKey {
  body: unknown;
  updatedAt: string;
}

interface DraftRow {
  kind: DraftKind;
  task_id: string;
  reply_to: string;
  body: string;
  updated_at: string;
}

const fromRow = (row: DraftRow): StoredDraft => ({
  kind: row.kind,
  taskId: row.task_id,
  replyTo: row.reply_to,
  body: JSON.parse(row.body) as unknown,
  updatedAt: row.updated_at,
});

export class MirrorDrafts {
  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
  ) {}

  /** Keeps `body` as the draft of `key`, replacing what it held. */
  save(key: DraftKey, body: unknown): void {
    this.tx.write(() => {
      this.db
        .prepare(
          `INSERT INTO drafts (kind, task_id, reply_to, body, updated_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (kind, task_id, reply_to) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
        )
        .run(key.kind, key.taskId, key.replyTo, JSON.stringify(body), this.tx.now());
    });
  }

  /** Drops the draft of `key` (sent, or the person discarded it); nothing when there is none. */
  discard(key: DraftKey): void {
    this.tx.write(() => {
      this.db
        .prepare('DELETE FROM drafts WHERE kind = ? AND task_id = ? AND reply_to = ?')
        .run(key.kind, key.taskId, key.replyTo);
    });
  }

  /** Every draft, or those on one task; the most recently written first. */
  list(taskId?: string): StoredDraft[] {
    return this.tx.read(() => {
      const rows = (
        taskId === undefined
          ? this.db.prepare('SELECT * FROM drafts ORDER BY updated_at DESC, kind, task_id, reply_to').all()
          : this.db
              .prepare('SELECT * FROM drafts WHERE task_id = ? ORDER BY updated_at DESC, kind, reply_to')
              .all(taskId)
      ) as DraftRow[];
      return rows.map(fromRow);
    });
  }

  /** The tasks that have a draft of a comment or a reply (a mark in their row and editor). */
  taskIds(): string[] {
    return this.tx.read(() =>
      this.db
        .prepare("SELECT DISTINCT task_id FROM drafts WHERE task_id <> '' ORDER BY task_id")
        .pluck()
        .all(),
    ) as string[];
  }
}

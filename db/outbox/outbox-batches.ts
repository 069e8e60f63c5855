// A bulk change's operations as one unit (their outbox rows share its
// batch_id, set by OutboxQueue.inBatch): how far sending it has got, which
// operations are its, and a stop of what is not sent yet, a few at a time so
// that no single write is long.
import type { OutboxRow } from '../schema';
import { opOf, type OutboxRows } from './outbox-rows';
import type { OutboxOp } from './outbox-types';
import type { OutboxQueue } from './queue';

/** How far a bulk change has got: its operations by where they stand. */
export interface BatchProgress {
  /** Operations the change queued (or folded into), sent or not. */
  total: number;
  /** Accepted by the service. */
  sent: number;
  /** Still to send (queued, or being sent). */
  waiting: number;
  /** Stopped for the person (a conflict, a refusal, blocked): shown among the pending changes. */
  stopped: number;
}

export class OutboxBatches {
  constructor(
    private readonly rows: OutboxRows,
    private readonly queue: OutboxQueue,
  ) {}

  progress(batchId: string): BatchProgress {
    return this.rows.tx.read(() => {
      const counts = this.rows.db
        .prepare('SELECT state, count(*) AS n FROM outbox WHERE batch_id = ? GROUP BY state')
        .all(batchId) as { state: string; n: number }[];
      const progress: BatchProgress = { total: 0, sent: 0, waiting: 0, stopped: 0 };
      for (const { state, n } of counts) {
        progress.total += n;
        if (state === 'done') progress.sent += n;
        else if (state === 'queued' || state === 'in_flight') progress.waiting += n;
        else progress.stopped += n;
      }
      return progress;
    });
  }

  /** The change's operations, oldest first (every state, sent ones included). */
  ops(batchId: string): OutboxOp[] {
    return this.rows.tx.read(() =>
      (
        this.rows.db
          .prepare('SELECT * FROM outbox WHERE batch_id = ? ORDER BY seq')
          .all(batchId) as OutboxRow[]
      ).map(opOf),
    );
  }

  /**
   * Gives up at most `limit` of the change's operations never sent (queued,
   * no attempt), until `budgetMs` went (one at least): their tasks show the
   * server's values again. Returns how many went, and whether others may be
   * left. What is being sent, sent or stopped stays.
   */
  stopSome(batchId: string, limit: number, budgetMs = Infinity): { stopped: number; more: boolean } {
    const started = performance.now();
    return this.rows.tx.write(() => {
      const unsent = this.rows.db
        .prepare(
          "SELECT op_id FROM outbox WHERE batch_id = ? AND state = 'queued' AND attempts = 0 ORDER BY seq LIMIT ?",
        )
        .pluck()
        .all(batchId, limit) as string[];
      let stopped = 0;
      for (const opId of unsent) {
        // Each drop rewrites its task's row (~0.5 ms at a million tasks): the rest wait for the next write.
        if (stopped > 0 && performance.now() - started > budgetMs) break;
        this.queue.drop(opId);
        stopped += 1;
      }
      return { stopped, more: stopped < unsent.length || unsent.length === limit };
    });
  }
}

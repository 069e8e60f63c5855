// `mirror.collections`: the stored resources of the collections beside tasks
// (projects, teams, sprints, comments, history, …) as the server sent them.
import type { Database } from 'better-sqlite3';
import type { Kysely } from 'kysely';
import { COLLECTIONS, type OtherCollection } from './collections';
import type { MirrorTransactions } from '../mirror-transactions';
import type { Resource } from '../passes/page-apply';
import type { MirrorDatabase } from '../schema';
import { UNSETTLED_SQL } from '../tasks/task-overlay';

export class MirrorCollections {
  constructor(
    private readonly db: Database,
    private readonly tx: MirrorTransactions,
    private readonly kysely: Kysely<MirrorDatabase>,
  ) {}

  /** Ids of the stored resources of a collection (e.g. team ids, to pull their sprints). */
  ids(collection: OtherCollection, scope?: string): string[] {
    return this.list(collection, scope).map((r) => r[COLLECTIONS[collection].idField] as string);
  }

  /** The stored resources of a collection (raw JSON as sent), by id; `scope` narrows sprints, comments, history. */
  list(collection: OtherCollection, scope?: string): Resource[] {
    return this.json(collection, scope).map((json) => JSON.parse(json) as Resource);
  }

  /**
   * Tasks filed under each milestone of a project (visible rows, pending edits
   * applied; subtasks too, each is filed on its own) and how many are completed.
   */
  milestoneCounts(projectId: string): Map<string, { total: number; completed: number }> {
    return this.tx.read(() => {
      const rows = this.db
        .prepare(
          `SELECT milestone_id AS id, count(*) AS total, sum(status = 'completed') AS completed FROM tasks
            WHERE hidden = 0 AND milestone_id IN (
              SELECT milestone_id FROM milestones WHERE project_id = ?
              -- One created here and not yet sent lives in the outbox alone (its tasks name its temporary id).
              UNION ALL
              SELECT entity_id FROM outbox
               WHERE entity_type = 'milestone' AND kind = 'create' AND parent_id = ? AND state IN ${UNSETTLED_SQL})
            GROUP BY milestone_id`,
        )
        .all(projectId, projectId) as { id: string; total: number; completed: number }[];
      return new Map(rows.map((r) => [r.id, { total: r.total, completed: r.completed }]));
    });
  }

  /** The same as the JSON text stored (what `export` prints). */
  json(collection: OtherCollection, scope?: string): string[] {
    const spec = COLLECTIONS[collection];
    return this.tx.read(() => {
      let query = this.kysely.selectFrom(spec.table).select(['raw_json']);
      if (scope !== undefined) query = query.where('scope', '=', scope);
      const { sql, parameters } = query.orderBy(spec.idField as 'scope').compile();
      const rows = this.db.prepare(sql).all(...parameters) as { raw_json: string }[];
      return rows.map((r) => r.raw_json);
    });
  }
}

// What a goal's, milestone's or section's delete does to the tasks filed under it: while
// the delete waits to be sent they show unfiled (task-overlay.ts applies it,
// as the service will), a delete given up files them again, and once the
// service took it their server copies are unfiled too. One never sent that is
// cancelled takes its temporary id out of the task edits filing under it.
import type { Database } from 'better-sqlite3';
import type { FilingField } from '../../protocol/writable-kind';
import { TEMPORARY_ID_PREFIX } from '../outbox/outbox-types';
import type { TaskObject } from './task-columns';
import { storedTaskJson } from './task-json';
import { type TaskOverlay, UNSETTLED_SQL } from './task-overlay';
import type { TaskStore } from './task-store';

export class TaskUnfiling {
  constructor(
    private readonly db: Database,
    private readonly store: TaskStore,
    private readonly overlay: TaskOverlay,
    private readonly now: () => string,
  ) {}

  /**
   * The tasks filed under the resource on screen, and with `onServer` those
   * the server files there while the screen shows them otherwise: only such
   * rows keep an effective copy apart (local_json), so the bodies scanned are
   * few; the server copy is read back whole to tell a mention from the filing.
   */
  private filedUnder(field: FilingField, id: string, onServer: boolean): string[] {
    const shown = this.db.prepare(`SELECT task_id FROM tasks WHERE ${field} = ?`).all(id) as {
      task_id: string;
    }[];
    const ids = new Set(shown.map((row) => row.task_id));
    if (!onServer) return [...ids];
    const apart = this.db
      .prepare(
        `SELECT t.task_id FROM tasks t JOIN task_bodies b ON b.rid = t.rid
          WHERE b.local_json IS NOT NULL AND b.server_json IS NOT NULL AND instr(b.server_json, ?) > 0`,
      )
      .all(id) as { task_id: string }[];
    for (const { task_id: taskId } of apart) {
      const server = this.store.byId(taskId)?.server_json;
      if (server != null && (JSON.parse(server) as TaskObject)[field] === id) ids.add(taskId);
    }
    return [...ids];
  }

  /** The resource's operations changed: a delete now waiting shows its tasks unfiled at once. */
  opsChanged(field: FilingField, entityType: string, id: string): void {
    if (this.createCancelled(entityType, id)) {
      this.forgetTemporary(field, id);
      return;
    }
    if (!this.overlay.waitingDelete(entityType, id)) return;
    for (const taskId of this.filedUnder(field, id, false)) this.overlay.refresh(taskId);
  }

  /** An operation of the resource was given up: a delete no longer waiting gives its tasks their filing back. */
  givenUp(field: FilingField, entityType: string, id: string): void {
    if (this.createCancelled(entityType, id)) {
      this.forgetTemporary(field, id);
      return;
    }
    for (const taskId of this.filedUnder(field, id, true)) this.overlay.refresh(taskId);
  }

  /** A temporary id with nothing left waiting: its create was cancelled by its delete or given up, never sent. */
  private createCancelled(entityType: string, id: string): boolean {
    if (!id.startsWith(TEMPORARY_ID_PREFIX)) return false;
    const waiting = this.db
      .prepare(
        `SELECT 1 FROM outbox WHERE entity_type = ? AND entity_id = ? AND state IN ${UNSETTLED_SQL} LIMIT 1`,
      )
      .get(entityType, id);
    return waiting === undefined;
  }

  /**
   * The id will never exist on the service: a waiting task edit that files
   * under it could never be sent as it is (refused, or held for a create that
   * is gone), so that field leaves it and the rest of the edit stays; an edit
   * left with nothing to send goes. The tasks show no goal (or milestone).
   */
  private forgetTemporary(field: FilingField, id: string): void {
    const ops = this.db
      .prepare(
        `SELECT op_id, entity_id, kind, patch, base_values FROM outbox
          WHERE entity_type = 'task' AND state IN ${UNSETTLED_SQL} AND instr(patch, ?) > 0`,
      )
      .all(id) as { op_id: string; entity_id: string; kind: string; patch: string; base_values: string }[];
    for (const op of ops) {
      const patch = JSON.parse(op.patch) as TaskObject;
      if (patch[field] !== id) continue;
      const base = JSON.parse(op.base_values) as TaskObject;
      delete patch[field];
      delete base[field];
      if (op.kind === 'update' && Object.keys(patch).length === 0) {
        this.db.prepare('DELETE FROM outbox WHERE op_id = ?').run(op.op_id);
      } else {
        this.db
          .prepare('UPDATE outbox SET patch = ?, base_values = ?, updated_at = ? WHERE op_id = ?')
          .run(JSON.stringify(patch), JSON.stringify(base), this.now(), op.op_id);
      }
      this.overlay.refresh(op.entity_id);
    }
  }

  /** The service took the delete and unfiled the tasks there: their server copies follow at once. */
  deleted(field: FilingField, id: string): void {
    for (const taskId of this.filedUnder(field, id, true)) {
      const existing = this.store.byId(taskId);
      if (existing?.server_json == null) continue;
      const server = { ...(JSON.parse(existing.server_json) as TaskObject), [field]: null };
      this.overlay.writeServerCopy(
        existing,
        server,
        storedTaskJson(server),
        existing.etag,
        existing.seen_pass,
      );
    }
  }
}

// Mirror files another version of the app left, for tests of opening them: an
// older one with migrations pending (migrated to 0026 only: 0027 and 0028,
// which rebuild the task rows and the id index, and every later one still to run), holding tasks
// written the way that app wrote them (plain SQL: app code moves on, the file
// must not), and a newer one, holding a migration this app does not know.
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../migrations/index';
import { migrateFileTo, openMirror } from '../open-mirror';

export const OLDER_MIRROR_SCHEMA = '0026_task_attachments';
/** What opening such a file with this app applies: every migration after its schema, in order. */
export const MIGRATIONS_AFTER_OLDER_MIRROR = Object.keys(MIGRATIONS).filter(
  (name) => name > OLDER_MIRROR_SCHEMA,
);

/** The applied migrations as an upgrade tells them: none, then one more at each step. */
export function upgradeSteps(): string[][] {
  return MIGRATIONS_AFTER_OLDER_MIRROR.map((_, n) => MIGRATIONS_AFTER_OLDER_MIRROR.slice(0, n + 1));
}

/** Writes `file` at the older schema with tasks `tsk_1`..`tsk_<count>`, titled `Task <n>`. */
export async function writeOlderMirror(file: string, count: number): Promise<string> {
  await migrateFileTo(file, OLDER_MIRROR_SCHEMA);
  const db = new Database(file);
  try {
    const task = db.prepare(
      `INSERT INTO tasks (rid, task_id, title, status, tags, tags_key, search_id, search_tags, created_at, created_day)
       VALUES (?, ?, ?, 'not_started', '[]', '', ?, '', '2026-01-05T10:00:00.000Z', '2026-01-05')`,
    );
    const body = db.prepare('INSERT INTO task_bodies (rid, server_json) VALUES (?, ?)');
    db.transaction(() => {
      for (let rid = 1; rid <= count; rid++) {
        const id = `tsk_${rid}`;
        task.run(rid, id, `Task ${rid}`, id);
        body.run(rid, JSON.stringify({ task_id: id, title: `Task ${rid}`, status: 'not_started', tags: [] }));
      }
    })();
  } finally {
    db.close();
  }
  return file;
}

/** Writes `file` as this app would, plus a migration a newer app applied: this app must refuse it. */
export async function writeNewerMirror(file: string): Promise<string> {
  (await openMirror(file)).close();
  const db = new Database(file);
  try {
    db.prepare(
      "INSERT INTO kysely_migration (name, timestamp) VALUES ('9999_from_a_newer_app', '2030-01-01')",
    ).run();
  } finally {
    db.close();
  }
  return file;
}

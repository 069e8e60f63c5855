// A task's description was stored twice: in its server copy (task_bodies)
// and, lower case, at the end of its search text (task_search_text), ~330
// bytes a task, 33 MB at 100 000. A shown task with nothing pending now keeps
// it once: its server copy holds where the description's JSON sat and the
// characters lower case changed, and reads the rest back from the search text
// (db/tasks/task-json.ts, shareDescription). This rewrites the copies stored before,
// a thousand a statement, each only when its search text ends with its
// description in lower case; an app before it refuses the file instead of
// misreading a copy. Frozen once landed; imports nothing from the app.
import { type Kysely, sql } from 'kysely';

/** Copies rewritten per statement. */
const CHUNK = 1000;
/** Where the array form (0013) holds the description. */
const DESCRIPTION_AT = 10;

/** The form db/tasks/task-json.ts shareDescription makes today, frozen here. */
function share(stored: string, description: unknown, lower: string): string | null {
  if (typeof description !== 'string' || lower.length !== description.length || description.length < 16)
    return null;
  const json = JSON.stringify(description);
  const offset = stored.indexOf(json);
  if (offset < 0) return null;
  const header: (number | string)[] = [offset, description.length];
  for (let i = 0; i < description.length;) {
    if (description.charCodeAt(i) === lower.charCodeAt(i)) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < description.length && description.charCodeAt(end) !== lower.charCodeAt(end)) end++;
    header.push(i, description.slice(i, end));
    if (header.length > 2 + description.length / 4) return null;
    i = end;
  }
  const headerJson = JSON.stringify(header);
  if (headerJson.length + 1 >= json.length) return null;
  return `~${headerJson}${stored.slice(0, offset)}${stored.slice(offset + json.length)}`;
}

function descriptionOf(stored: string): unknown {
  const parsed = JSON.parse(stored) as unknown;
  if (Array.isArray(parsed)) return parsed[DESCRIPTION_AT];
  return typeof parsed === 'object' && parsed !== null
    ? (parsed as { description?: unknown }).description
    : null;
}

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (let after = 0; ;) {
    const { rows } = await sql<{ rid: number; server_json: string; text: string }>`
      SELECT b.rid, b.server_json, s.text FROM task_bodies b
        JOIN tasks t ON t.rid = b.rid JOIN task_search_text s ON s.rid = b.rid
       WHERE b.rid > ${after} AND t.hidden = 0 AND b.local_json IS NULL
         AND substr(b.server_json, 1, 1) IN ('[', '{')
       ORDER BY b.rid LIMIT ${CHUNK}`.execute(db);
    const last = rows.at(-1);
    if (last === undefined) return;
    after = last.rid;
    const rewritten: [number, string][] = [];
    for (const row of rows) {
      const description = descriptionOf(row.server_json);
      if (typeof description !== 'string') continue;
      const lower = description.toLowerCase();
      if (!row.text.endsWith(lower)) continue;
      const shared = share(row.server_json, description, lower);
      if (shared !== null) rewritten.push([row.rid, shared]);
    }
    if (rewritten.length === 0) continue;
    await sql`
      UPDATE task_bodies SET server_json = c.value ->> 1
        FROM json_each(${JSON.stringify(rewritten)}) AS c
       WHERE task_bodies.rid = c.value ->> 0`.execute(db);
  }
}

import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { Mirror } from '../mirror';
import { MirrorVersionError } from '../mirror-errors';
import { migrateFileTo, openMirror } from '../open-mirror';
import { writeNewerMirror } from '../testing/other-version-mirrors';
import { COLLECTION_KINDS } from '../../protocol/writable-kinds';
import { taskAttachments } from '../read-models/task-attachments';
import { VIRTUAL_TABLES } from '../schema';
import { shareDescription, storedTaskJson } from '../tasks/task-json';
import { onlyPage, storedServerCopies } from '../test-mirror';
import { LATEST_MIGRATION, MIGRATIONS } from './index';

/**
 * One case per migration, Signal's shape: a database migrated up to `version`
 * gets data written the way that version wrote it (plain SQL: app code moves
 * on, the case must not), then it is opened with the app's latest schema and
 * `verify` checks through today's API that nothing was lost. A new migration
 * adds a case here; the first test refuses a migration without one.
 */
interface UpgradeCase {
  version: string;
  seed(db: Database.Database): void;
  verify(mirror: Mirror): void | Promise<void>;
}

const TASK_JSON = {
  task_id: 'tsk_seeded',
  org_id: 'org_1',
  project_id: 'prj_1',
  title: 'Seeded before the upgrade',
  description: 'Carried over intact',
  status: 'in_progress',
  priority: 'high',
  assignee: 'ada',
  tags: ['kept'],
  due_date: '2026-03-01',
  created_at: '2026-01-05T10:00:00.000Z',
  future_field: { unknown: true },
};

/** The search index rows of the seeded task, as 0001 and 0002 wrote them (ids in their own trigram table). */
function seedSearch(db: Database.Database): void {
  db.prepare(
    "INSERT INTO task_words (rowid, words) VALUES (1, 'edited locally carried over intact kept')",
  ).run();
  db.prepare("INSERT INTO task_id_trigrams (rowid, id) VALUES (1, 'tsk_seeded')").run();
  seedVocabulary(db);
}

/** The vocabulary of the seeded task's words (unchanged since 0001). */
function seedVocabulary(db: Database.Database): void {
  for (const word of ['edited', 'locally', 'carried', 'over', 'intact', 'kept']) {
    const { lastInsertRowid } = db.prepare('INSERT INTO search_words (word) VALUES (?)').run(word);
    db.prepare('INSERT INTO search_word_trigrams (rowid, word) VALUES (?, ?)').run(lastInsertRowid, word);
  }
}

/** Rows of the tables 0001 created and later migrations (so far) left alone, as 0001 wrote them. */
function seedOtherTables(db: Database.Database): void {
  db.prepare(
    `INSERT INTO outbox (op_id, entity_type, entity_id, kind, patch, base_etag, base_values, state, attempts, created_at, updated_at)
     VALUES ('op-1', 'task', 'tsk_seeded', 'update', '{"title":"Edited locally"}', '"v1"',
             '{"title":"Seeded before the upgrade"}', 'conflict', 1, '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z')`,
  ).run();
  db.prepare(
    `INSERT INTO conflicts (conflict_id, op_id, entity_type, entity_id, field, base, mine, theirs, theirs_etag, state, created_at)
     VALUES ('c-1', 'op-1', 'task', 'tsk_seeded', 'title', '"Seeded before the upgrade"', '"Edited locally"',
             '"Theirs"', '"v2"', 'open', '2026-03-01T00:00:00Z')`,
  ).run();
  db.prepare(
    "INSERT INTO sync_passes (collection, scope, pass_no, state, partial, started_at) VALUES ('tasks', '', 1, 'running', 0, '2026-03-01T00:00:00Z')",
  ).run();
  db.prepare(
    `INSERT INTO sync_pages (collection, scope, page_index, pass_no, cursor_sent, etag, next_cursor, item_ids, fetched_at)
     VALUES ('tasks', '', 0, 1, NULL, '"page0"', 'cur1', '["tsk_seeded"]', '2026-03-01T00:00:00Z')`,
  ).run();
  db.prepare(
    `INSERT INTO sections (section_id, scope, seen_pass, name, scope_type, scope_id, position, etag, fetched_at, raw_json)
     VALUES ('sec_1', '', 1, 'Backlog', 'project', 'prj_1', 1024, NULL, '2026-03-01T00:00:00Z', '{"section_id":"sec_1","name":"Backlog"}')`,
  ).run();
  db.prepare(
    `INSERT INTO change_feed (created_at, kind, entity_type, entity_id, for_user, summary)
     VALUES ('2026-03-01T00:00:00Z', 'task-assigned', 'task', 'tsk_seeded', 'ada', '{}')`,
  ).run();
}

/** What every case must find after the upgrade, through today's API. */
function verifyEverything(mirror: Mirror): void {
  expect(mirror.identity.account()).toEqual({ orgId: 'org_1', username: 'ada' });
  expect(mirror.tasks.get('tsk_seeded')).toMatchObject({
    task: { title: 'Edited locally', future_field: { unknown: true } },
    server: TASK_JSON,
    etag: '"v1"',
    pending: true,
  });
  const found = mirror.tasks.query(new URLSearchParams('filter[search]=carried over&filter[tags]=kept'), {
    me: 'ada',
    today: '2026-03-10',
  });
  expect(found.items.map((t) => t.task_id)).toEqual(['tsk_seeded']);
  const byId = mirror.tasks.query(new URLSearchParams('filter[search]=K_SEED'), {
    me: 'ada',
    today: '2026-03-10',
  });
  expect(byId.items.map((t) => t.task_id)).toEqual(['tsk_seeded']);
  // Two letters of the description only, and punctuation-free letters apart:
  // checked against, and counted over, the compact search text (0004).
  const short = mirror.tasks.query(new URLSearchParams('filter[search]=RI'), {
    me: 'ada',
    today: '2026-03-10',
  });
  expect(short.items.map((t) => t.task_id)).toEqual(['tsk_seeded']);
  expect(
    mirror.tasks.count(new URLSearchParams('filter[search]=r i'), { me: 'ada', today: '2026-03-10' }),
  ).toBe(1);
  expect(mirror.outbox.list()).toMatchObject([{ opId: 'op-1', state: 'conflict', attempts: 1 }]);
  expect(mirror.outbox.conflicts('open')).toMatchObject([{ conflictId: 'c-1', theirs: 'Theirs' }]);
  expect(mirror.passes.state('tasks')).toMatchObject({
    state: 'running',
    resume: { pageIndex: 1, cursor: 'cur1' },
  });
  expect(mirror.collections.list('sections')).toEqual([{ section_id: 'sec_1', name: 'Backlog' }]);
  expect(mirror.feed.list('ada')).toHaveLength(1);
}

/** The seeded task as edited locally (its pending copy). */
const LOCAL_TASK_JSON = { ...TASK_JSON, title: 'Edited locally' };

/** The signed-in account, as every version has stored it. */
function seedAccount(db: Database.Database): void {
  db.prepare("INSERT INTO meta (key, value) VALUES ('org_id', 'org_1'), ('username', 'ada')").run();
}

/**
 * The seeded task's row as versions before 0015 wrote it, its sort keys written by the app; `extra`
 * columns for what a version kept in the row besides (0001: the bodies).
 */
function seedTaskRowWrittenKeys(
  db: Database.Database,
  extra: { columns: string; values: string; params: unknown[] } = { columns: '', values: '', params: [] },
): void {
  const columns = extra.columns ? `, ${extra.columns}` : '';
  const values = extra.values ? `, ${extra.values}` : '';
  db.prepare(
    `INSERT INTO tasks (rid, task_id, pending, seen_pass, title, k_title, status, k_status, k_status_rank,
       priority, k_priority, k_priority_rank, t_priority, assignee, k_assignee, t_assignee, project_id, k_project,
       t_project, tags, tags_key, due_date, k_due, start_date, k_start, created_at, k_created, t_created,
       created_day, task_type, k_task_type, t_task_type, search_id, search_tags, etag${columns})
     VALUES (1, 'tsk_seeded', 1, 1, 'Edited locally', 'edited locally', 'in_progress', 'in_progress', 1,
       'high', 'high', 2, 'high', 'ada', 'ada', 'ada', 'prj_1', 'prj_1', 'prj_1', '["kept"]', ?, '2026-03-01',
       '2026-03-01', NULL, x'', '2026-01-05T10:00:00.000Z', '2026-01-05t10:00:00.000z', '2026-01-05T10:00:00.000Z',
       '2026-01-05', NULL, x'', '', 'tsk_seeded', ?, '"v1"'${values})`,
  ).run('\u001fkept\u001f', '\u001fkept\u001f', ...extra.params);
}

/** The seeded task's server and local copies in task_bodies (0002 on), with its search body before 0005. */
function seedTaskBodies(db: Database.Database, withSearchBody: boolean): void {
  const copies = [JSON.stringify(TASK_JSON), JSON.stringify(LOCAL_TASK_JSON)];
  if (withSearchBody) {
    db.prepare(
      "INSERT INTO task_bodies (rid, search_body, server_json, local_json) VALUES (1, 'carried over intact', ?, ?)",
    ).run(...copies);
  } else {
    db.prepare('INSERT INTO task_bodies (rid, server_json, local_json) VALUES (1, ?, ?)').run(...copies);
  }
}

/** Whether the file's task sort keys are virtual columns (0015 on). */
function hasVirtualSortKeys(db: Database.Database): boolean {
  return (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).some(
    (c) => c.name === 'k_lower',
  );
}

/** Whether the file's task rows keep tags_key, search_tags and created_day only where SQLite cannot make them (0027 on). */
function keepsDerivedColumns(db: Database.Database): boolean {
  return (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[]).some(
    (c) => c.name === 'tags_key_kept',
  );
}

/** A file with the compact search text (0004 on); before 0005 the description was also in task_bodies. */
function seedWithSearchText(
  db: Database.Database,
  withSearchBody: boolean,
  idTokens: 'trigrams' | 'bigrams' = 'trigrams',
): void {
  seedAccount(db);
  if (keepsDerivedColumns(db)) {
    // 0027 on: tags_key, search_tags and created_day are SQLite's to make ('' kept) where it can.
    db.prepare(
      `INSERT INTO tasks (rid, task_id, pending, seen_pass, title, status, priority, assignee, project_id, tags,
         tags_key_kept, due_date, start_date, created_at, created_day_kept, task_type, search_id_kept, search_tags_kept,
         etag)
       VALUES (1, 'tsk_seeded', 1, 1, 'Edited locally', 'in_progress', 'high', 'ada', 'prj_1', '["kept"]', '',
         '2026-03-01', NULL, '2026-01-05T10:00:00.000Z', '', NULL, '', '', '"v1"')`,
    ).run();
  } else if (hasVirtualSortKeys(db)) {
    // 0015 on: the sort keys are computed from the row, never written.
    db.prepare(
      `INSERT INTO tasks (rid, task_id, pending, seen_pass, title, status, priority, assignee, project_id, tags,
         tags_key, due_date, start_date, created_at, created_day, task_type, search_id, search_tags, etag)
       VALUES (1, 'tsk_seeded', 1, 1, 'Edited locally', 'in_progress', 'high', 'ada', 'prj_1', '["kept"]', ?,
         '2026-03-01', NULL, '2026-01-05T10:00:00.000Z', '2026-01-05', NULL, 'tsk_seeded', ?, '"v1"')`,
    ).run('\u001fkept\u001f', '\u001fkept\u001f');
  } else {
    seedTaskRowWrittenKeys(db);
  }
  seedTaskBodies(db, withSearchBody);
  db.prepare('INSERT INTO task_search_text (rid, text) VALUES (1, ?)').run(
    'edited locally\u001ftsk_seeded\u001f\u001fkept\u001f\u001fcarried over intact',
  );
  // The id's tokens as that version wrote them (0003: trigrams, 0006: bigrams).
  const tokens =
    idTokens === 'trigrams'
      ? 'ǂ74736b ǂ736b5f ǂ6b5f73 ǂ5f7365 ǂ736565 ǂ656564 ǂ656465 ǂ646564'
      : 'ǂ7473 ǂ736b ǂ6b5f ǂ5f73 ǂ7365 ǂ6565 ǂ6564 ǂ6465 ǂ6564';
  db.prepare(
    "INSERT INTO task_words (rowid, words) VALUES (1, 'edited locally carried over intact kept ' || ?)",
  ).run(tokens);
  seedVocabulary(db);
  seedOtherTables(db);
}

/** A task shaped as the contract (every field, in the service's order), as the service sends it. */
const CONTRACT_TASK = {
  task_id: 'tsk_compact',
  org_id: 'org_1',
  project_id: 'prj_1',
  team_id: null,
  section_id: null,
  sprint_id: null,
  goal_id: null,
  milestone_id: null,
  parent_task_id: null,
  title: 'Contract shaped',
  description: 'quote " backslash \\ and \u2028 ☃',
  status: 'not_started',
  priority: null,
  assignee: null,
  tags: ['a', 'b'],
  due_date: null,
  start_date: null,
  task_type: 'task',
  created_via: 'app',
  review: null,
  position: 0.1 + 0.2,
  created_by: 'ada',
  updated_by: 'ada',
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
  completed_at: null,
};

/** Another task row like the seeded one (rid 2), its server copy `serverJson` as a version before 0013 stored it. */
function seedSecondTask(db: Database.Database, taskId: string, serverJson: string): void {
  const columns = (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[])
    .map((c) => c.name)
    .filter((name) => !['rid', 'task_id', 'search_id', 'pending', 'etag'].includes(name));
  db.prepare(
    `INSERT INTO tasks (rid, task_id, search_id, pending, etag, ${columns.join(', ')})
     SELECT 2, ?, ?, 0, NULL, ${columns.join(', ')} FROM tasks WHERE rid = 1`,
  ).run(taskId, taskId.toLowerCase());
  db.prepare('INSERT INTO task_bodies (rid, server_json, local_json) VALUES (2, ?, NULL)').run(serverJson);
}

/** The file as 0006 to today wrote it: the search text without a search body, the id's tokens as bigrams. */
function seedAsFrom0006(db: Database.Database): void {
  seedWithSearchText(db, false, 'bigrams');
}

/** A migration that changes nothing the seed writes or the checks read: every case's data, every case's checks. */
function unchangedDataCase(version: string): UpgradeCase {
  return { version, seed: seedAsFrom0006, verify: verifyEverything };
}

/** The ids of the first page of a task list query, as the person's list shows them. */
function listedIds(mirror: Mirror, query: string): string[] {
  return mirror.tasks
    .query(new URLSearchParams(query), { me: 'ada', today: '2026-03-10' })
    .items.map((t) => t.task_id);
}

const UPGRADE_CASES: UpgradeCase[] = [
  {
    version: '0001_initial',
    seed(db) {
      seedAccount(db);
      // 0001 kept the bodies in the task's row.
      seedTaskRowWrittenKeys(db, {
        columns: 'search_body, server_json, local_json',
        values: "'carried over intact', ?, ?",
        params: [JSON.stringify(TASK_JSON), JSON.stringify(LOCAL_TASK_JSON)],
      });
      seedSearch(db);
      seedOtherTables(db);
    },
    verify: verifyEverything,
  },
  {
    version: '0002_task_bodies',
    seed(db) {
      seedAccount(db);
      seedTaskRowWrittenKeys(db);
      seedTaskBodies(db, true);
      seedSearch(db);
      seedOtherTables(db);
    },
    verify: verifyEverything,
  },
  {
    version: '0003_id_trigram_words',
    seed(db) {
      seedAccount(db);
      seedTaskRowWrittenKeys(db);
      seedTaskBodies(db, true);
      db.prepare(
        `INSERT INTO task_words (rowid, words) VALUES (1, 'edited locally carried over intact kept ' ||
           'ǂ74736b ǂ736b5f ǂ6b5f73 ǂ5f7365 ǂ736565 ǂ656564 ǂ656465 ǂ646564')`,
      ).run();
      seedVocabulary(db);
      seedOtherTables(db);
    },
    verify: verifyEverything,
  },
  {
    version: '0004_task_search_text',
    seed: (db) => seedWithSearchText(db, true),
    verify: verifyEverything,
  },
  {
    version: '0005_one_copy_of_search_text',
    seed: (db) => seedWithSearchText(db, false),
    verify: verifyEverything,
  },
  unchangedDataCase('0006_id_bigram_words'),
  unchangedDataCase('0007_word_index_merges_apart'),
  unchangedDataCase('0008_wider_walk_indexes'),
  unchangedDataCase('0009_pass_completed_once'),
  {
    version: '0010_milestones_and_task_openings',
    seed(db) {
      seedAsFrom0006(db);
      db.prepare(
        `INSERT INTO milestones (milestone_id, scope, seen_pass, project_id, name, status, position, due_date, etag, fetched_at, raw_json)
         VALUES ('mst_1', 'prj_1', 1, 'prj_1', 'Beta', 'open', 1024, '2026-04-01', NULL, '2026-03-01T00:00:00Z',
                 '{"milestone_id":"mst_1","project_id":"prj_1","name":"Beta","future":1}')`,
      ).run();
      db.prepare(
        "INSERT INTO task_openings (task_id, opened_at) VALUES ('tsk_seeded', '2026-03-05T00:00:00.000Z')",
      ).run();
    },
    verify(mirror) {
      verifyEverything(mirror);
      expect(mirror.collections.list('milestones')).toEqual([
        { milestone_id: 'mst_1', project_id: 'prj_1', name: 'Beta', future: 1 },
      ]);
      expect(mirror.openings.openedSince('2026-03-01T00:00:00.000Z')).toEqual(['tsk_seeded']);
    },
  },
  {
    version: '0011_comment_checks',
    seed(db) {
      seedAsFrom0006(db);
      db.prepare(
        "INSERT INTO task_openings (task_id, opened_at) VALUES ('tsk_seeded', '2026-03-05T00:00:00.000Z')",
      ).run();
      db.prepare(
        "INSERT INTO comment_checks (task_id, checked_at) VALUES ('tsk_seeded', '2026-03-06T00:00:00.000Z')",
      ).run();
    },
    verify(mirror) {
      verifyEverything(mirror);
      const watch = { username: 'nobody', today: '2026-03-10', openedSince: '2026-03-01T00:00:00.000Z' };
      expect(mirror.openings.commentWatch({ ...watch, limit: 5 })).toEqual(['tsk_seeded']);
    },
  },
  {
    version: '0012_outbox_parent',
    seed: seedAsFrom0006,
    verify(mirror) {
      verifyEverything(mirror);
      expect(mirror.outbox.list()).toMatchObject([{ opId: 'op-1', entityType: 'task', parentId: null }]);
    },
  },
  {
    version: '0013_compact_task_json',
    seed(db) {
      seedAsFrom0006(db);
      seedSecondTask(db, 'tsk_compact', JSON.stringify(CONTRACT_TASK));
    },
    verify(mirror) {
      verifyEverything(mirror);
      expect(JSON.stringify(mirror.tasks.get('tsk_compact')?.server)).toBe(JSON.stringify(CONTRACT_TASK));
    },
  },
  {
    version: '0014_filing_count_indexes',
    seed: seedAsFrom0006,
    verify(mirror) {
      verifyEverything(mirror);
      expect(mirror.tasks.sectionCounts()).toBeInstanceOf(Map);
      expect(mirror.tasks.goalCounts()).toBeInstanceOf(Map);
    },
  },
  {
    version: '0015_virtual_sort_keys',
    seed: seedAsFrom0006,
    verify(mirror) {
      verifyEverything(mirror);
      const page = mirror.tasks.query(new URLSearchParams('sort_by=priority_rank&sort_order=desc'), {
        me: 'ada',
        today: '2026-03-10',
      });
      expect(page.items.map((t) => t.task_id)).toEqual(['tsk_seeded']);
    },
  },
  {
    version: '0016_comment_watch_indexes',
    seed: seedAsFrom0006,
    verify(mirror) {
      verifyEverything(mirror);
      // The seeded task is ada's and open: found through tasks_by_assignee_open.
      const watch = { username: 'ada', today: '2026-03-10', openedSince: '2026-03-01T00:00:00.000Z' };
      expect(mirror.openings.commentWatch({ ...watch, limit: 5 })).toEqual(['tsk_seeded']);
    },
  },
  unchangedDataCase('0017_shared_description'),
  {
    version: '0018_milestone_filing_index',
    seed(db) {
      seedAsFrom0006(db);
      db.prepare("UPDATE tasks SET milestone_id = 'mst_1' WHERE rid = 1").run();
    },
    async verify(mirror) {
      verifyEverything(mirror);
      // Found through tasks_by_milestone, made on the file that was there.
      const filed = await mirror.tasks.filed('milestone_id', ['mst_1'], 10);
      expect(filed.tasks.map((t) => t.task_id)).toEqual(['tsk_seeded']);
    },
  },
  unchangedDataCase('0019_row_held_server_copy'),
  {
    version: '0020_sub_task_index',
    seed(db) {
      seedAsFrom0006(db);
      db.prepare("UPDATE tasks SET parent_task_id = 'tsk_parent' WHERE rid = 1").run();
    },
    verify(mirror) {
      verifyEverything(mirror);
      // Found through tasks_by_parent, made on the file that was there.
      expect(mirror.tasks.subTasks('tsk_parent').map((t) => t.task_id)).toEqual(['tsk_seeded']);
    },
  },
  {
    version: '0021_drafts',
    seed(db) {
      seedAsFrom0006(db);
      db.prepare(
        `INSERT INTO drafts (kind, task_id, reply_to, body, updated_at)
         VALUES ('comment', 'tsk_seeded', '', '{"text":"Not sent yet"}', '2026-03-01T00:00:00Z')`,
      ).run();
    },
    verify(mirror) {
      verifyEverything(mirror);
      expect(mirror.drafts.list('tsk_seeded')).toMatchObject([
        { kind: 'comment', body: { text: 'Not sent yet' } },
      ]);
    },
  },
  unchangedDataCase('0022_saved_views_and_pins'),
  {
    version: '0023_outbox_batch',
    seed: seedAsFrom0006,
    verify(mirror) {
      verifyEverything(mirror);
      // An operation queued before is a single edit: no bulk change's, and undone, retried or dropped alone.
      expect(mirror.outbox.list().map((op) => op.opId)).toEqual(['op-1']);
      expect(mirror.outbox.batchOps('any-batch')).toEqual([]);
      expect(mirror.outbox.batchProgress('any-batch')).toEqual({ total: 0, sent: 0, waiting: 0, stopped: 0 });
    },
  },
  // Entries from before keep no key (their dedupe is the notifier's last-seen id); db/passes/change-feed.test.ts keys new ones.
  unchangedDataCase('0024_inbox_change_keys'),
  // An index alone: db/tasks/intake-counts.test.ts holds the counts to it.
  unchangedDataCase('0025_intake_index'),
  {
    version: '0026_task_attachments',
    seed: seedAsFrom0006,
    verify(mirror) {
      verifyEverything(mirror);
      // The new table is there, empty, and a task's attachments are read through its index.
      expect(taskAttachments(mirror, 'tsk_seeded')).toEqual([]);
      expect(mirror.collections.list('task_attachments')).toEqual([]);
    },
  },
  {
    version: '0027_smaller_task_rows',
    seed: seedAsFrom0006,
    verify(mirror) {
      // The tag filter, the search and the created-date filter read what SQLite makes of the row.
      verifyEverything(mirror);
      const ids = (query: string) => listedIds(mirror, query);
      expect(ids('filter[created_after]=2026-01-05&filter[created_before]=2026-01-05')).toEqual([
        'tsk_seeded',
      ]);
      expect(ids('filter[created_after]=2026-01-06')).toEqual([]);
    },
  },
  {
    version: '0028_smaller_id_index',
    seed: seedAsFrom0006,
    verify(mirror) {
      // Lookups by id and the search by id read the index on its new tie-breaker.
      verifyEverything(mirror);
      const ids = (query: string) => listedIds(mirror, query);
      expect(ids('sort_by=task_id')).toEqual(['tsk_seeded']);
      expect(ids('filter[search]=SEEDED')).toEqual(['tsk_seeded']);
    },
  },
  {
    version: '0029_task_changes',
    seed: seedAsFrom0006,
    verify(mirror) {
      // The list's answers are cached by the count of task changes the migration starts.
      verifyEverything(mirror);
      expect(listedIds(mirror, 'filter[search]=edited')).toEqual(['tsk_seeded']);
    },
  },
];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mirror-migrations-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A file named `name` in the test's folder, migrated to `version` and open for the data that version wrote. */
async function fileMigratedTo(
  name: string,
  version: string,
): Promise<{ file: string; db: Database.Database }> {
  const file = join(dir, name);
  await migrateFileTo(file, version);
  return { file, db: new Database(file) };
}

/** Opens the mirror on `file` with the app's latest schema, hands it to `use`, and closes it even when `use` throws. */
async function withMirror(file: string, use: (mirror: Mirror) => void | Promise<void>): Promise<void> {
  const mirror = await openMirror(file);
  try {
    await use(mirror);
  } finally {
    mirror.close();
  }
}

describe('migrations', () => {
  test('every migration has an upgrade case, in order', () => {
    expect(UPGRADE_CASES.map((c) => c.version)).toEqual(Object.keys(MIGRATIONS));
  });

  test('a fresh file gets every table the schema types name, at the latest migration', async () => {
    const file = join(dir, 'fresh.db');
    const mirror = await openMirror(file);
    mirror.close();
    const db = new Database(file, { readonly: true });
    const names = (
      db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[]
    ).map((r) => r.name);
    const applied = (
      db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]
    ).map((r) => r.name);
    db.close();
    const schemaSource = readFileSync(new URL('../schema.ts', import.meta.url), 'utf8');
    const typed = [...schemaSource.matchAll(/^ {2}(\w+): \w+Table;$/gm)].map((m) => m[1] as string);
    expect(typed.length).toBeGreaterThan(10);
    for (const table of [...typed, ...VIRTUAL_TABLES]) expect(names).toContain(table);
    expect(applied).toEqual(Object.keys(MIGRATIONS));
    expect(applied.at(-1)).toBe(LATEST_MIGRATION);
  });

  // A writable kind's table type is derived from its descriptor (db/schema.ts), so its migration must match it.
  test.each(COLLECTION_KINDS.map((kind) => ({ kind, collection: kind.collection })))(
    'the $collection table has the columns its descriptor names, at the latest migration',
    async ({ kind }) => {
      const file = join(dir, `${kind.collection}.db`);
      const mirror = await openMirror(file);
      mirror.close();
      const db = new Database(file, { readonly: true });
      const columns = (db.pragma(`table_info(${kind.collection})`) as { name: string; pk: number }[]).map(
        (c) => c.name,
      );
      const key = (db.pragma(`table_info(${kind.collection})`) as { name: string; pk: number }[])
        .filter((c) => c.pk > 0)
        .map((c) => c.name);
      db.close();
      const bookkeeping = ['scope', 'seen_pass', 'raw_json', 'etag', 'fetched_at'];
      expect(columns.sort()).toEqual(
        [kind.idField, ...kind.columns.map(([field]) => field), ...bookkeeping].sort(),
      );
      expect(key).toContain(kind.idField);
    },
  );

  test.each(UPGRADE_CASES)(
    'a mirror at $version with data upgrades to the latest and loses nothing',
    async (c) => {
      const file = join(dir, `${c.version}.db`);
      await migrateFileTo(file, c.version);
      const db = new Database(file);
      db.transaction(() => c.seed(db))();
      db.close();
      await withMirror(file, async (mirror) => {
        await c.verify(mirror);
      });
      // Opening again runs nothing twice.
      await withMirror(file, async (again) => {
        await c.verify(again);
      });
    },
  );

  test('0009: a list with a completed pass before the upgrade counts as completed once; a first pass still running does not', async () => {
    const { file, db } = await fileMigratedTo('passes.db', '0008_wider_walk_indexes');
    const pass = db.prepare(
      'INSERT INTO sync_passes (collection, scope, pass_no, state, partial, started_at) VALUES (?, ?, ?, ?, 0, ?)',
    );
    pass.run('tasks', '', 1, 'running', '2026-03-01T00:00:00Z');
    pass.run('sections', '', 1, 'complete', '2026-03-01T00:00:00Z');
    pass.run('projects', '', 3, 'running', '2026-03-01T00:00:00Z');
    db.close();
    await withMirror(file, (mirror) => {
      expect(mirror.passes.state('tasks', '')?.completedOnce).toBe(false);
      expect(mirror.passes.state('sections', '')?.completedOnce).toBe(true);
      // Before 0009 a later pass number was read as "completed before": kept so.
      expect(mirror.passes.state('projects', '')?.completedOnce).toBe(true);
    });
  });

  test('0013: server copies stored as JSON text are rewritten without key names when they read back the same, others are left as they are', async () => {
    const { file, db } = await fileMigratedTo('compact.db', '0012_outbox_parent');
    seedAsFrom0006(db);
    seedSecondTask(db, 'tsk_compact', JSON.stringify(CONTRACT_TASK));
    // Contract-shaped but not as JSON.stringify writes it (spaces): its text is kept, not re-spelled.
    const spaced = JSON.stringify({ ...CONTRACT_TASK, task_id: 'tsk_seeded' }, null, 1);
    db.prepare('UPDATE task_bodies SET server_json = ? WHERE rid = 1').run(spaced);
    db.prepare('UPDATE task_bodies SET local_json = ? WHERE rid = 2').run(JSON.stringify(CONTRACT_TASK));
    db.close();
    const mirror = await openMirror(file);
    mirror.close();
    const after = new Database(file, { readonly: true });
    const stored = after.prepare('SELECT server_json, local_json FROM task_bodies ORDER BY rid').all() as {
      server_json: string;
      local_json: string | null;
    }[];
    after.close();
    expect(stored[0]?.server_json).toBe(spaced);
    expect(JSON.parse(stored[1]?.server_json ?? '')).toEqual(Object.values(CONTRACT_TASK));
    // Only server copies are rewritten.
    expect(stored[1]?.local_json).toBe(JSON.stringify(CONTRACT_TASK));
  });

  test('0015: the sort keys become computed columns with the values the rows stored, the lower case SQLite cannot make kept, and the same indexes', async () => {
    const { file, db } = await fileMigratedTo('keys.db', '0014_filing_count_indexes');
    seedAsFrom0006(db);
    // A row whose keys JavaScript lowered where SQLite's lower() folds ASCII only (İ becomes two characters).
    seedSecondTask(db, 'tsk_unicode', JSON.stringify({ ...CONTRACT_TASK, task_id: 'tsk_unicode' }));
    db.prepare(
      `UPDATE tasks SET title = 'İstanbul Über', k_title = 'i̇stanbul über', status = 'ÄRGER', k_status = 'ärger',
         k_status_rank = 'ärger', priority = NULL, k_priority = x'', k_priority_rank = x'', t_priority = '',
         assignee = 'Zoë', k_assignee = 'zoë', t_assignee = 'Zoë' WHERE rid = 2`,
    ).run();
    const keys =
      'k_title, k_status, k_status_rank, k_priority, k_priority_rank, t_priority, k_assignee, t_assignee, ' +
      'k_project, t_project, k_due, k_start, k_created, t_created, k_task_type, t_task_type';
    const before = db.prepare(`SELECT rid, ${keys} FROM tasks ORDER BY rid`).all();
    const indexesOf = (d: Database.Database) =>
      d
        .prepare(
          "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'tasks' ORDER BY name",
        )
        .all();
    const indexes = indexesOf(db);
    db.close();
    await migrateFileTo(file, '0015_virtual_sort_keys');
    const after = new Database(file, { readonly: true });
    try {
      expect(after.prepare(`SELECT rid, ${keys} FROM tasks ORDER BY rid`).all()).toEqual(before);
      expect(after.prepare('SELECT k_lower FROM tasks ORDER BY rid').pluck().all()).toEqual([
        null,
        '{"title":"i̇stanbul über","status":"ärger"}',
      ]);
      expect(indexesOf(after)).toEqual(indexes);
    } finally {
      after.close();
    }
  });

  test('0027: rows stored before read their tags, lower-case tags and day as they were, and created_at is indexed by its smaller tie-breaker', async () => {
    const { file, db } = await fileMigratedTo('kept.db', '0026_task_attachments');
    seedAsFrom0006(db);
    // A tag JSON escapes and a day an offset moves: values SQLite could not make, stored whole as before.
    seedSecondTask(db, 'tsk_odd', JSON.stringify({ ...CONTRACT_TASK, task_id: 'tsk_odd' }));
    db.prepare(
      `UPDATE tasks SET tags = '["say \\"hi\\"","ÄRGER"]', tags_key = ?, search_tags = ?,
         created_at = '2026-01-05T01:00:00+02:00', created_day = '2026-01-04' WHERE rid = 2`,
    ).run('\u001fsay "hi"\u001fÄRGER\u001f', '\u001fsay "hi"\u001färger\u001f');
    const columns = 'rid, search_id, tags_key, search_tags, created_day';
    const before = db.prepare(`SELECT ${columns} FROM tasks ORDER BY rid`).all();
    db.close();
    await migrateFileTo(file, '0027_smaller_task_rows');
    const after = new Database(file, { readonly: true });
    try {
      expect(after.prepare(`SELECT ${columns} FROM tasks ORDER BY rid`).all()).toEqual(before);
      const definition = (name: string) =>
        after.prepare('SELECT sql FROM sqlite_schema WHERE name = ?').pluck().get(name);
      expect(definition('tasks_by_created')).toBe(
        'CREATE INDEX tasks_by_created ON tasks (k_created, t_created_case, task_id)',
      );
      expect(definition('tasks_by_id')).toBe('CREATE UNIQUE INDEX tasks_by_id ON tasks (search_id, task_id)');
    } finally {
      after.close();
    }
  });

  test('0027: a first load under way builds the created_at index it deferred with the new tie-breaker', async () => {
    const { file, db } = await fileMigratedTo('deferred.db', '0026_task_attachments');
    const created = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'tasks_by_created'").pluck().get();
    db.prepare("INSERT INTO meta (key, value) VALUES ('deferred_task_indexes', ?)").run(
      JSON.stringify({
        indexes: [{ name: 'tasks_by_created', sql: created }],
        wordsFrom: 0,
        vocabularyFrom: '',
      }),
    );
    db.exec('DROP INDEX tasks_by_created');
    db.close();
    await migrateFileTo(file, '0027_smaller_task_rows');
    const after = new Database(file, { readonly: true });
    try {
      expect(
        after.prepare("SELECT 1 FROM sqlite_schema WHERE name = 'tasks_by_created'").get(),
      ).toBeUndefined();
      const plan = JSON.parse(
        after.prepare("SELECT value FROM meta WHERE key = 'deferred_task_indexes'").pluck().get() as string,
      ) as { indexes: { sql: string }[] };
      expect(plan.indexes.map((index) => index.sql)).toEqual([
        'CREATE INDEX tasks_by_created ON tasks (k_created, t_created_case, task_id)',
      ]);
    } finally {
      after.close();
    }
  });

  test('0028: ids differing in case alone keep their order and stay one each, on the id index with its smaller tie-breaker', async () => {
    const { file, db } = await fileMigratedTo('ids.db', '0027_smaller_task_rows');
    seedAsFrom0006(db);
    const columns = (db.prepare('PRAGMA table_info(tasks)').all() as { name: string }[])
      .map((c) => c.name)
      .filter((name) => !['rid', 'task_id', 'search_id_kept'].includes(name));
    // The Kelvin sign's lower case is k (JavaScript's, which search_id keeps), a smaller code point: that id sorts above 'tsk_k'.
    const taskIds = ['tsk_k', 'TSK_K', 'tsk_K', 'tsk_\u212a', 'Tsk_k', 'tsk_é', 'tsk_É', 'TSK_é'];
    taskIds.forEach((taskId, i) => {
      const lower = taskId.toLowerCase();
      db.prepare(
        `INSERT INTO tasks (rid, task_id, search_id_kept, ${columns.join(', ')})
         SELECT ?, ?, ?, ${columns.join(', ')} FROM tasks WHERE rid = 1`,
      ).run(10 + i, taskId, lower === taskId.replace(/[A-Z]/g, (c) => c.toLowerCase()) ? '' : lower);
    });
    const order = (d: Database.Database) =>
      d.prepare('SELECT task_id FROM tasks INDEXED BY tasks_by_id ORDER BY search_id, task_id').pluck().all();
    const before = order(db);
    db.close();
    await migrateFileTo(file, '0028_smaller_id_index');
    const after = new Database(file);
    try {
      expect(after.prepare("SELECT sql FROM sqlite_schema WHERE name = 'tasks_by_id'").pluck().get()).toBe(
        'CREATE UNIQUE INDEX tasks_by_id ON tasks (search_id, t_id_case)',
      );
      // The index's own order is the order by the id's lower case and then the id, as before.
      expect(
        after
          .prepare('SELECT task_id FROM tasks INDEXED BY tasks_by_id ORDER BY search_id, t_id_case')
          .pluck()
          .all(),
      ).toEqual(before);
      expect(before).toEqual(
        ['tsk_seeded', ...taskIds].sort((a, b) => {
          const [la, lb] = [a.toLowerCase(), b.toLowerCase()];
          return la !== lb ? (la < lb ? -1 : 1) : a < b ? -1 : 1;
        }),
      );
      // Each id is found by its lower case and itself; a second row with a stored id is refused.
      const find = after.prepare('SELECT rid FROM tasks WHERE search_id = ? AND task_id = ?').pluck();
      taskIds.forEach((taskId, i) => expect(find.get(taskId.toLowerCase(), taskId)).toBe(10 + i));
      expect(() =>
        after
          .prepare(
            `INSERT INTO tasks (rid, task_id, search_id_kept, ${columns.join(', ')})
             SELECT 99, task_id, search_id_kept, ${columns.join(', ')} FROM tasks WHERE rid = 13`,
          )
          .run(),
      ).toThrow(/UNIQUE/);
    } finally {
      after.close();
    }
  });

  test('0017: a shown, unedited task keeps its description once, in its search text, and reads back the same; others are left as they are', async () => {
    const { file, db } = await fileMigratedTo('shared.db', '0016_comment_watch_indexes');
    seedAsFrom0006(db);
    const described = { ...CONTRACT_TASK, description: 'Carried Over to the Search Text "quoted" ☃' };
    seedSecondTask(db, 'tsk_compact', JSON.stringify(Object.values(described)));
    db.prepare('INSERT INTO task_search_text (rid, text) VALUES (2, ?)').run(
      `contract shaped\u001ftsk_compact\u001f\u001fa\u001fb\u001f\u001f${described.description.toLowerCase()}`,
    );
    db.close();
    await migrateFileTo(file, '0017_shared_description');
    const after = new Database(file, { readonly: true });
    const stored = after
      .prepare('SELECT server_json FROM task_bodies ORDER BY rid')
      .pluck()
      .all() as string[];
    after.close();
    // The seeded task has an edit pending (its search text is the edited task's): left as it was.
    expect(stored[0]).toBe(JSON.stringify(TASK_JSON));
    expect(stored[1]?.startsWith('~')).toBe(true);
    expect(stored[1]).not.toContain('Search Text');
    await withMirror(file, (mirror) => {
      expect(JSON.stringify(mirror.tasks.get('tsk_compact')?.server)).toBe(
        JSON.stringify({ ...described, task_id: 'tsk_compact' }),
      );
    });
  });

  test('0019: copies stored whole or sharing their description read back the same after it, and a task written again is held by its row', async () => {
    const { file, db } = await fileMigratedTo('row-held.db', '0017_shared_description');
    seedAsFrom0006(db);
    const described = {
      ...CONTRACT_TASK,
      description: 'Shared with the search text, as migration 0017 stored it for this task',
    };
    const lower = described.description.toLowerCase();
    const stored = storedTaskJson(described);
    seedSecondTask(db, 'tsk_compact', shareDescription(stored, described.description, lower));
    db.prepare('INSERT INTO task_search_text (rid, text) VALUES (2, ?)').run(
      `contract shaped\u001ftsk_compact\u001f\u001fa\u001fb\u001f\u001f${lower}`,
    );
    db.close();
    const bodies = () => storedServerCopies(file);
    await withMirror(file, (mirror) => {
      expect(bodies()[1]?.[0]).toBe('~');
      expect(JSON.stringify(mirror.tasks.get('tsk_compact')?.server)).toBe(JSON.stringify(described));
      const page = (items: Record<string, unknown>[]) =>
        mirror.passes.applyPage(onlyPage('tasks', items, { partial: true }));
      expect(page([{ ...described }]).unchanged).toBe(1);
      const renamed = { ...described, title: 'Renamed on the server' };
      expect(page([renamed]).changes.updated.map((u) => Object.keys(u.changes))).toEqual([['title']]);
      expect(bodies()[1]?.[0]).toBe('^');
      expect(JSON.stringify(mirror.tasks.get('tsk_compact')?.server)).toBe(JSON.stringify(renamed));
    });
  });

  test("0012: operations queued before the upgrade stay queued as the tasks' they are, ready to send", async () => {
    const { file, db } = await fileMigratedTo('queued.db', '0011_comment_checks');
    const op = db.prepare(
      `INSERT INTO outbox (op_id, entity_type, entity_id, kind, patch, base_etag, base_values, state, attempts, created_at, updated_at)
       VALUES (?, 'task', ?, ?, ?, ?, ?, 'queued', 0, '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z')`,
    );
    op.run('op-create', 'local-1', 'create', '{"title":"Written offline"}', null, '{}');
    op.run('op-edit', 'tsk_2', 'update', '{"title":"Renamed"}', '"v3"', '{"title":"Before"}');
    db.close();
    await withMirror(file, (mirror) => {
      expect(mirror.outbox.ready()).toMatchObject([
        {
          opId: 'op-create',
          entityType: 'task',
          parentId: null,
          kind: 'create',
          patch: { title: 'Written offline' },
        },
        { opId: 'op-edit', entityType: 'task', parentId: null, kind: 'update', baseEtag: '"v3"' },
      ]);
    });
  });

  test('a file from a newer app is refused with a version error, untouched', async () => {
    const file = await writeNewerMirror(join(dir, 'newer.db'));
    await expect(openMirror(file)).rejects.toBeInstanceOf(MirrorVersionError);
  });

  test('migrations import nothing but Kysely: they are frozen in time', () => {
    const folder = new URL('.', import.meta.url);
    for (const name of readdirSync(folder)) {
      if (!/^\d{4}_.*\.ts$/.test(name)) continue;
      const source = readFileSync(new URL(name, folder), 'utf8');
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((m) => m[1]);
      expect(
        imports.every((spec) => spec === 'kysely'),
        name,
      ).toBe(true);
      expect(Object.keys(MIGRATIONS)).toContain(name.replace(/\.ts$/, ''));
    }
  });
});

// The mirror's first schema: every mirrored collection, the effective task
// columns and their sort indexes, word search, sync bookkeeping, outbox,
// conflicts and the change feed. Frozen once landed: change the schema in a new
// migration, never here. Imports nothing from the app.
import { type Kysely, sql } from 'kysely';

/** Columns every non-task collection shares: raw JSON as sent, its ETag, pass bookkeeping. */
const COLLECTIONS: { table: string; id: string; columns: [string, 'text' | 'integer' | 'real'][] }[] = [
  {
    table: 'organizations',
    id: 'org_id',
    columns: [
      ['name', 'text'],
      ['slug', 'text'],
    ],
  },
  {
    table: 'projects',
    id: 'project_id',
    columns: [
      ['org_id', 'text'],
      ['name', 'text'],
      ['status', 'text'],
      ['team_id', 'text'],
    ],
  },
  {
    table: 'teams',
    id: 'team_id',
    columns: [
      ['org_id', 'text'],
      ['name', 'text'],
    ],
  },
  {
    table: 'organization_members',
    id: 'user_id',
    columns: [
      ['org_id', 'text'],
      ['username', 'text'],
      ['email', 'text'],
      ['role', 'text'],
      ['is_active', 'integer'],
    ],
  },
  {
    table: 'sections',
    id: 'section_id',
    columns: [
      ['name', 'text'],
      ['scope_type', 'text'],
      ['scope_id', 'text'],
      ['position', 'real'],
    ],
  },
  {
    table: 'sprints',
    id: 'sprint_id',
    columns: [
      ['team_id', 'text'],
      ['name', 'text'],
      ['status', 'text'],
      ['start_date', 'text'],
      ['end_date', 'text'],
    ],
  },
  {
    table: 'goals',
    id: 'goal_id',
    columns: [
      ['project_id', 'text'],
      ['name', 'text'],
      ['status', 'text'],
      ['position', 'real'],
    ],
  },
  {
    table: 'task_comments',
    id: 'comment_id',
    columns: [
      ['task_id', 'text'],
      ['parent_comment_id', 'text'],
      ['created_at', 'text'],
    ],
  },
  {
    table: 'task_history',
    id: 'history_id',
    columns: [
      ['task_id', 'text'],
      ['created_at', 'text'],
    ],
  },
];

// Migrations are frozen in time: they see the database untyped, never today's schema types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // Small columns first, large texts last: a query reading the indexed columns
  // never touches the overflow pages a long description or JSON spills into.
  await db.schema
    .createTable('tasks')
    .addColumn('rid', 'integer', (c) => c.primaryKey())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('hidden', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('pending', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('server_gone', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('seen_pass', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('k_title', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('k_status', 'text', (c) => c.notNull())
    .addColumn('k_status_rank', 'blob', (c) => c.notNull())
    .addColumn('priority', 'text')
    .addColumn('k_priority', 'blob', (c) => c.notNull())
    .addColumn('k_priority_rank', 'blob', (c) => c.notNull())
    .addColumn('t_priority', 'text', (c) => c.notNull())
    .addColumn('assignee', 'text')
    .addColumn('k_assignee', 'blob', (c) => c.notNull())
    .addColumn('t_assignee', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text')
    .addColumn('k_project', 'blob', (c) => c.notNull())
    .addColumn('t_project', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('section_id', 'text')
    .addColumn('sprint_id', 'text')
    .addColumn('goal_id', 'text')
    .addColumn('milestone_id', 'text')
    .addColumn('parent_task_id', 'text')
    .addColumn('tags', 'text', (c) => c.notNull())
    .addColumn('tags_key', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    .addColumn('k_due', 'blob', (c) => c.notNull())
    .addColumn('start_date', 'text')
    .addColumn('k_start', 'blob', (c) => c.notNull())
    .addColumn('created_at', 'text')
    .addColumn('k_created', 'blob', (c) => c.notNull())
    .addColumn('t_created', 'text', (c) => c.notNull())
    .addColumn('created_day', 'text')
    .addColumn('task_type', 'text')
    .addColumn('k_task_type', 'blob', (c) => c.notNull())
    .addColumn('t_task_type', 'text', (c) => c.notNull())
    .addColumn('created_via', 'text')
    .addColumn('review', 'text')
    .addColumn('position', 'real')
    .addColumn('updated_at', 'text')
    .addColumn('completed_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('updated_by', 'text')
    .addColumn('etag', 'text')
    .addColumn('search_id', 'text', (c) => c.notNull())
    .addColumn('search_tags', 'text', (c) => c.notNull())
    .addColumn('search_body', 'text', (c) => c.notNull())
    .addColumn('server_json', 'text')
    .addColumn('local_json', 'text')
    .execute();

  // One index per sort key, ending in the tie-breakers (raw value, task id), so
  // that a sorted page is a walk of an index. `status` and `priority` sorts
  // walk the rank indexes group by group instead of having their own: every
  // index costs each upsert, and these keys have a handful of values.
  const sortIndexes: [string, string[]][] = [
    ['tasks_by_title', ['k_title', 'title', 'task_id']],
    ['tasks_by_status_rank', ['k_status_rank', 'status', 'task_id']],
    ['tasks_by_priority_rank', ['k_priority_rank', 't_priority', 'task_id']],
    ['tasks_by_due', ['k_due', 'task_id']],
    ['tasks_by_start', ['k_start', 'task_id']],
    ['tasks_by_created', ['k_created', 't_created', 'task_id']],
    ['tasks_by_assignee', ['k_assignee', 't_assignee', 'task_id']],
    ['tasks_by_project', ['k_project', 't_project', 'task_id']],
    ['tasks_by_task_type', ['k_task_type', 't_task_type', 'task_id']],
  ];
  for (const [name, columns] of sortIndexes) {
    await db.schema.createIndex(name).on('tasks').columns(columns).execute();
  }
  // The `task_id` sort compares the lower-case id first, like every text; the
  // same index finds a task by id and keeps ids unique.
  await db.schema.createIndex('tasks_by_id').on('tasks').columns(['search_id', 'task_id']).unique().execute();

  // Search: the words of each task's title, description and tags (contentless:
  // the text lives in `tasks`), the vocabulary with a trigram index to find the
  // words containing a search term, and the trigrams of each task id.
  await sql`CREATE VIRTUAL TABLE task_words USING fts5(words, tokenize = "ascii tokenchars '-_'", content = '', contentless_delete = 1, detail = none)`.execute(
    db,
  );
  await sql`CREATE VIRTUAL TABLE task_id_trigrams USING fts5(id, tokenize = 'trigram case_sensitive 1', content = '', contentless_delete = 1, detail = none)`.execute(
    db,
  );
  await db.schema
    .createTable('search_words')
    .addColumn('word_id', 'integer', (c) => c.primaryKey())
    .addColumn('word', 'text', (c) => c.notNull().unique())
    .execute();
  await sql`CREATE VIRTUAL TABLE search_word_trigrams USING fts5(word, tokenize = 'trigram case_sensitive 1', content = 'search_words', content_rowid = 'word_id')`.execute(
    db,
  );

  for (const collection of COLLECTIONS) {
    let table = db.schema
      .createTable(collection.table)
      .addColumn(collection.id, 'text', (c) => c.primaryKey())
      .addColumn('scope', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('seen_pass', 'integer', (c) => c.notNull().defaultTo(0));
    for (const [name, type] of collection.columns) table = table.addColumn(name, type);
    await table
      .addColumn('etag', 'text')
      .addColumn('fetched_at', 'text', (c) => c.notNull())
      .addColumn('raw_json', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex(`${collection.table}_by_scope`)
      .on(collection.table)
      .columns(['scope', 'seen_pass'])
      .execute();
  }

  await db.schema
    .createTable('sync_passes')
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('pass_no', 'integer', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('partial', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .addPrimaryKeyConstraint('sync_passes_pk', ['collection', 'scope'])
    .execute();

  await db.schema
    .createTable('sync_pages')
    .addColumn('collection', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('page_index', 'integer', (c) => c.notNull())
    .addColumn('pass_no', 'integer', (c) => c.notNull())
    .addColumn('cursor_sent', 'text')
    .addColumn('etag', 'text')
    .addColumn('next_cursor', 'text')
    .addColumn('item_ids', 'text', (c) => c.notNull())
    .addColumn('fetched_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sync_pages_pk', ['collection', 'scope', 'page_index'])
    .execute();

  await db.schema
    .createTable('outbox')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('op_id', 'text', (c) => c.notNull().unique())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull().check(sql`kind IN ('create', 'update', 'delete')`))
    .addColumn('patch', 'text', (c) => c.notNull())
    .addColumn('base_etag', 'text')
    .addColumn('base_values', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) =>
      c.notNull().check(sql`state IN ('queued', 'in_flight', 'done', 'conflict', 'failed', 'blocked')`),
    )
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_problem', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('outbox_by_entity')
    .on('outbox')
    .columns(['entity_type', 'entity_id', 'seq'])
    .execute();
  await db.schema.createIndex('outbox_by_state').on('outbox').columns(['state', 'seq']).execute();

  await db.schema
    .createTable('conflicts')
    .addColumn('conflict_id', 'text', (c) => c.primaryKey())
    .addColumn('op_id', 'text', (c) =>
      c.notNull().references('outbox.op_id').onDelete('cascade').onUpdate('cascade'),
    )
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('base', 'text', (c) => c.notNull())
    .addColumn('mine', 'text', (c) => c.notNull())
    .addColumn('theirs', 'text', (c) => c.notNull())
    .addColumn('theirs_etag', 'text')
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('open', 'resolved')`))
    .addColumn('resolution', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .execute();
  await db.schema.createIndex('conflicts_by_op').on('conflicts').columns(['op_id', 'state']).execute();
  await db.schema
    .createIndex('conflicts_by_state')
    .on('conflicts')
    .columns(['state', 'created_at'])
    .execute();

  await db.schema
    .createTable('change_feed')
    .addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addColumn('for_user', 'text', (c) => c.notNull())
    .addColumn('summary', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text')
    .execute();
  await db.schema
    .createIndex('change_feed_by_user')
    .on('change_feed')
    .columns(['for_user', 'seen_at', 'id'])
    .execute();
}

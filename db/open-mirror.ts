// Opens (or creates) the mirror file of one account: connection settings chosen
// for durability, the SQL functions the queries use, and the schema migrated
// forward with Kysely's Migrator over the static migration list.
import { existsSync } from 'node:fs';
import Database from 'better-sqlite3';
import {
  Kysely,
  Migrator,
  SqliteAdapter,
  SqliteDialect,
  type DialectAdapter,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { hasDeferredSortIndexes, restoreSortIndexes } from './tasks/deferred-indexes';
import { MIGRATIONS, staticMigrationProvider, LATEST_MIGRATION } from './migrations/index';
import { asStorageError, MirrorStorageError, MirrorVersionError } from './mirror-errors';
import { LOG_SIZE_LIMIT_BYTES, Mirror, type MirrorOptions } from './mirror';
import { prepareOwnerOnlyDatabase, tightenDatabaseFiles } from './files/owner-only-files';
import type { MirrorDatabase } from './schema';
import { searchBodyOf } from './tasks/task-columns';
import { WordIndex } from './tasks/word-index';

export interface OpenMirrorOptions extends MirrorOptions {
  /** Open without writing (export, inspection); the file must exist and be migrated. */
  readonly?: boolean;
  /** How long a write waits for another connection's lock before failing as `locked` (default 5000 ms). */
  busyTimeoutMs?: number;
  /** A ceiling on the file's size: writes beyond it fail as `full` (default: none). */
  maxSizeMb?: number;
  /** Page size of a NEW file (an existing file keeps its own); default {@link MIRROR_PAGE_SIZE}. */
  pageSize?: number;
  /**
   * better-sqlite3's compiled addon to load instead of the one in node_modules:
   * the Electron app passes the build made for Electron (main/native/sqlite-addon.ts),
   * since node_modules holds Node's build and Electron refuses it.
   */
  nativeBinding?: string;
  /** This connection's page cache (default 64 MiB); the pull worker's connection, which only applies pages, takes less. */
  cacheSizeMb?: number;
  /**
   * Who copies the write-ahead log back into the file. `on-commit` (the
   * default): SQLite does, inside whichever commit of this connection finds
   * the log past 1000 pages, copying up to 16 MB in that call.
   * `another-connection`: never this one; for the app's main process, whose
   * pull worker's connection commits often (every poll) and checkpoints
   * there: measured, an edit's commit on main took 15-60 ms instead of ~2
   * when it ran the checkpoint after a first load.
   */
  checkpoints?: 'on-commit' | 'another-connection';
  /** With `on-commit`: the log's size, in pages, past which a commit checkpoints (SQLite's default 1000). */
  checkpointPages?: number;
}

/**
 * Page size of new mirror files. A 1000-task page dirties leaves of ten task
 * indexes at random; with bigger pages there are fewer, and the per-page work
 * of the write-ahead log shrinks: measured ~13% less CPU per stored task than
 * 4 KiB at 60 000 tasks (about even at 100 000), reads no slower.
 */
export const MIRROR_PAGE_SIZE = 16384;

/**
 * Where the connection applying the server's pages (the pull worker's)
 * checkpoints the log: a first load's page of 1000 tasks commits ~270 log
 * pages, so SQLite's default 1000 copied and fsynced every fourth page;
 * every 4000 (64 MiB, the journal_size_limit) measured 5-7% more tasks a
 * second at 100 000. Only that connection: an edit never runs a checkpoint.
 */
export const PAGE_WRITER_CHECKPOINT_PAGES = 4000;

/**
 * Page cache of that connection (the app's own keeps the default 64 MiB). A
 * first load appends rows and builds its sort indexes after the pass, so it
 * mostly touches the id index; 16 MiB bounds what the pull worker adds to the
 * app's memory.
 */
export const PAGE_WRITER_CACHE_MB = 16;

/** SQLite does run DDL inside transactions: let the Migrator wrap each run in one, so a crash leaves no half schema. */
class TransactionalSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

class MirrorDialect extends SqliteDialect {
  override createAdapter(): DialectAdapter {
    return new TransactionalSqliteAdapter();
  }
}

function registerFunctions(db: Database.Database): void {
  const tagsOf = (json: unknown): string[] => {
    if (typeof json !== 'string') return [];
    const parsed = JSON.parse(json) as unknown;
    return Array.isArray(parsed) ? parsed.filter((t): t is string => typeof t === 'string') : [];
  };
  // Only for search terms and tags holding the tag separator (U+001F), which the indexed columns cannot answer.
  db.function('mirror_tags_contain', { deterministic: true }, (json: unknown, term: unknown) =>
    typeof term === 'string' && tagsOf(json).some((tag) => tag.toLowerCase().includes(term)) ? 1 : 0,
  );
  db.function(
    'mirror_search_body_contains',
    { deterministic: true },
    (text: unknown, k_title: unknown, search_id: unknown, search_tags: unknown, term: unknown) =>
      typeof text === 'string' &&
      text !== '' &&
      searchBodyOf(text, {
        k_title: String(k_title),
        search_id: String(search_id),
        search_tags: String(search_tags),
      }).includes(String(term))
        ? 1
        : 0,
  );
  db.function('mirror_has_tag', { deterministic: true }, (json: unknown, tag: unknown) =>
    tagsOf(json).includes(tag as string) ? 1 : 0,
  );
}

/** Told of each migration as it is applied (inside the run's transaction, which commits after the last). */
export type MigratedListener = (name: string) => void;

/** The static migrations, each telling `onMigrated` when its `up` finished. */
function reportingProvider(onMigrated: MigratedListener): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(await staticMigrationProvider.getMigrations()).map(([name, migration]) => [
          name,
          {
            ...migration,
            up: async (db) => {
              await migration.up(db);
              onMigrated(name);
            },
          } satisfies Migration,
        ]),
      ),
  };
}

export async function migrateMirror(
  kysely: Kysely<MirrorDatabase>,
  file: string,
  target?: string,
  onMigrated?: MigratedListener,
): Promise<void> {
  const provider = onMigrated === undefined ? staticMigrationProvider : reportingProvider(onMigrated);
  const migrator = new Migrator({ db: kysely, provider });
  const result = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  if (result.error !== undefined) {
    const mapped = asStorageError(result.error, file);
    if (mapped instanceof MirrorStorageError) throw mapped;
    const failed = result.results?.find((r) => r.status === 'Error');
    const detail = failed
      ? `migration ${failed.migrationName} failed`
      : `its migrations do not match this app's (${result.error instanceof Error ? result.error.message : 'unknown error'})`;
    throw new MirrorVersionError(file, detail, { cause: result.error });
  }
}

/**
 * The migrations this app would apply to an existing file, read without
 * writing (a few milliseconds): none for a file that does not exist yet (a
 * new file's migrations are quick) nor for one made by a newer app (opening it
 * refuses it as today).
 */
export function pendingMigrations(file: string, options: { nativeBinding?: string } = {}): string[] {
  if (!existsSync(file)) return [];
  let db: Database.Database;
  try {
    db = new Database(file, {
      readonly: true,
      fileMustExist: true,
      ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
    });
  } catch (error) {
    throw asStorageError(error, file);
  }
  try {
    return unappliedMigrations(db);
  } catch (error) {
    throw asStorageError(error, file);
  } finally {
    db.close();
  }
}

/**
 * The app's migrations a connection's file has not applied, from its
 * `kysely_migration` table: all of them for a file without one, none for a
 * file made by a newer app (it names a migration this app lacks; opening it
 * refuses it as today).
 */
function unappliedMigrations(db: Database.Database): string[] {
  const tracked = db
    .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'")
    .get();
  const applied = new Set(
    tracked
      ? (db.prepare('SELECT name FROM kysely_migration').all() as { name: string }[]).map((r) => r.name)
      : [],
  );
  if ([...applied].some((name) => !(name in MIGRATIONS))) return [];
  return Object.keys(MIGRATIONS).filter((name) => !applied.has(name));
}

/**
 * Brings an existing file to the latest schema and closes it, telling
 * `onMigrated` of each migration: what the upgrade worker runs, so that the
 * thread which then opens the mirror finds nothing left to do.
 */
export async function upgradeMirrorFile(
  file: string,
  options: Pick<OpenMirrorOptions, 'nativeBinding' | 'busyTimeoutMs'> & { onMigrated?: MigratedListener },
): Promise<void> {
  const { db, kysely } = connect(file, options);
  try {
    await migrateForUse(db, kysely, file, options.onMigrated);
  } catch (error) {
    throw asStorageError(error, file);
  } finally {
    db.close();
  }
}

/**
 * A first load that stopped before its end left its indexes unbuilt. A
 * migration must see the whole schema: then build them now (rare: an
 * interrupted first sync and an app update at once). Otherwise the mirror
 * goes on building them in the background (see Mirror).
 */
async function migrateForUse(
  db: Database.Database,
  kysely: Kysely<MirrorDatabase>,
  file: string,
  onMigrated?: MigratedListener,
): Promise<void> {
  if (hasDeferredSortIndexes(db) && unappliedMigrations(db).length > 0)
    restoreSortIndexes(db, new WordIndex(db));
  await migrateMirror(kysely, file, undefined, onMigrated);
}

/**
 * Migrates a file up to `target` and closes it, without opening it for use
 * (the mirror's code only knows the latest schema): upgrade tests start here.
 */
export async function migrateFileTo(file: string, target: string): Promise<void> {
  const db = new Database(file);
  const kysely = new Kysely<MirrorDatabase>({ dialect: new MirrorDialect({ database: db }) });
  try {
    await migrateMirror(kysely, file, target);
  } finally {
    db.close();
  }
}

/** A connection to the mirror file (created if missing) with the app's settings and SQL functions, not yet migrated. */
function connect(
  file: string,
  options: OpenMirrorOptions,
): { db: Database.Database; kysely: Kysely<MirrorDatabase> } {
  let db: Database.Database;
  try {
    // People's task contents: readable by them alone (0600), -wal and -shm too.
    prepareOwnerOnlyDatabase(file, { create: !(options.readonly ?? false) });
    db = new Database(file, {
      readonly: options.readonly ?? false,
      fileMustExist: options.readonly ?? false,
      ...(options.nativeBinding !== undefined ? { nativeBinding: options.nativeBinding } : {}),
    });
  } catch (error) {
    throw asStorageError(error, file);
  }
  try {
    db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
    // Reads page 1: a file that is not a database fails here, as `corrupt`.
    const objects = (db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }).n;
    if (objects === 0 && !options.readonly) db.pragma(`page_size = ${options.pageSize ?? MIRROR_PAGE_SIZE}`);
    if (!options.readonly) {
      db.pragma('journal_mode = WAL');
      tightenDatabaseFiles(file);
      // WAL with synchronous=NORMAL may lose the last commits on power loss
      // (they are durable only at the next checkpoint). An edit the app has
      // acknowledged must survive that, so local writes (edits, the outbox)
      // commit with FULL: the WAL is fsynced before the call returns, which
      // also makes every earlier commit durable. Pages from the server commit
      // with NORMAL (Mirror switches per transaction): losing the last one to
      // a power cut only means fetching it again, its bookkeeping lost with it.
      // On the app's main thread a person's writes go through writeWhenFree,
      // which commits with NORMAL and waits for the log's fsync on libuv's
      // threads before telling them saved (an fsync in the commit held main
      // asleep while it flushed every page not yet on disk); a bulk change's
      // chunks commit so too, waited for once at its end (Durability 'interim').
      db.pragma('synchronous = FULL');
      db.pragma(`journal_size_limit = ${options.logLimitBytes ?? LOG_SIZE_LIMIT_BYTES}`);
      if (options.checkpoints === 'another-connection') db.pragma('wal_autocheckpoint = 0');
      else if (options.checkpointPages !== undefined)
        db.pragma(`wal_autocheckpoint = ${Math.max(1, Math.floor(options.checkpointPages))}`);
    }
    db.pragma('foreign_keys = ON');
    if (options.maxSizeMb !== undefined) {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`max_page_count = ${Math.max(1, Math.floor((options.maxSizeMb * 1024 * 1024) / pageSize))}`);
    }
    db.pragma(`cache_size = ${-1024 * (options.cacheSizeMb ?? 64)}`);
    db.pragma('temp_store = MEMORY');
    // Bounded statistics gathering: `PRAGMA optimize` stays a few milliseconds at 100 000 tasks.
    db.pragma('analysis_limit = 1000');
    registerFunctions(db);
  } catch (error) {
    db.close();
    throw asStorageError(error, file);
  }
  return { db, kysely: new Kysely<MirrorDatabase>({ dialect: new MirrorDialect({ database: db }) }) };
}

/** Opens the mirror file (created if missing), migrated to the latest schema. */
export async function openMirror(file: string, options: OpenMirrorOptions = {}): Promise<Mirror> {
  const { db, kysely } = connect(file, options);
  try {
    if (options.readonly) {
      const applied = db
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name = 'kysely_migration'")
        .get()
        ? (db.prepare('SELECT max(name) AS name FROM kysely_migration').get() as { name: string | null }).name
        : null;
      if (applied !== LATEST_MIGRATION) {
        throw new MirrorVersionError(
          file,
          `schema ${applied ?? 'none'} is not ${LATEST_MIGRATION} and cannot be migrated read-only`,
        );
      }
    } else {
      await migrateForUse(db, kysely, file);
    }
  } catch (error) {
    db.close();
    throw asStorageError(error, file);
  }
  return new Mirror(db, file, kysely, options);
}

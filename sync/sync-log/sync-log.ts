// A persistent, searchable log of one account's sync activity (requests and
// their answers, retries, merges, conflicts, errors), kept in its own small
// SQLite file beside the mirror and bounded in rows: the oldest are pruned.
// Everything is redacted before it is stored, so the file never holds a token.
//
// Why its own file and not a table in the mirror: the pull worker writes the
// mirror through its own connection in immediate transactions, and a log line
// per request would contend with those writes for the one writer lock.
import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { prepareOwnerOnlyDatabase, tightenDatabaseFiles } from '../../db/files/owner-only-files';
import { redactClipped, redactLogValue } from './log-redaction';

import { type SyncLogKind, type SyncLogLevel } from './sync-log-vocabulary';

export { SYNC_LOG_KINDS, SYNC_LOG_LEVELS, type SyncLogKind, type SyncLogLevel } from './sync-log-vocabulary';

export interface SyncLogEntryInput {
  level: SyncLogLevel;
  kind: SyncLogKind;
  message: string;
  method?: string | null;
  path?: string | null;
  status?: number | null;
  durationMs?: number | null;
  requestId?: string | null;
  operation?: string | null;
  /** Structured facts (counts, ids, problem types); never titles or descriptions. */
  detail?: Readonly<Record<string, unknown>> | null;
}

export interface SyncLogEntry {
  id: number;
  /** ISO 8601. */
  at: string;
  level: SyncLogLevel;
  kind: SyncLogKind;
  message: string;
  method: string | null;
  path: string | null;
  status: number | null;
  durationMs: number | null;
  requestId: string | null;
  operation: string | null;
  detail: Record<string, unknown> | null;
}

export interface SyncLogQuery {
  /** Words that must all appear (case-insensitive) in the message, path, operation, request id or detail. */
  text?: string;
  levels?: readonly SyncLogLevel[];
  kinds?: readonly SyncLogKind[];
  /** Entries older than this id (paging backwards); newest first. */
  beforeId?: number;
  /** Default 200, at most 1000. */
  limit?: number;
}

export interface SyncLogPage {
  entries: SyncLogEntry[];
  /** Pass as `beforeId` for the next (older) page; null at the end. */
  nextBeforeId: number | null;
}

/** When the app last asked the server about a collection, and when a remote change in it last arrived. */
export interface CollectionFreshness {
  collection: string;
  checkedAt: string | null;
  changedAt: string | null;
}

export interface SyncLogOptions {
  /** Rows kept (default 5000); each row is capped, so this bounds the file too. */
  maxRows?: number;
  /** ISO time now; default the system clock. */
  now?: () => string;
  /** Secrets known by value (the account's tokens), redacted wherever they appear. */
  secrets?: () => readonly string[];
  /** Entries buffered before they are written in one transaction (default 100; also written on the next tick). */
  batchSize?: number;
}

const MAX_MESSAGE_CHARS = 1000;
const MAX_DETAIL_CHARS = 2000;
const MAX_PATH_CHARS = 1000;

/** An entry as its table stores it: snake_case columns, the detail as JSON text. */
type Row = Omit<SyncLogEntry, 'durationMs' | 'requestId' | 'detail'> & {
  duration_ms: number | null;
  request_id: string | null;
  detail: string | null;
};

const clip = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The log file for a mirror file: beside it, with the same name. */
export function syncLogFileFor(mirrorFile: string): string {
  return mirrorFile.replace(/(\.db|\.sqlite3?)?$/, '.sync-log.db');
}

export class SyncLog {
  private readonly db: Database.Database;
  private readonly maxRows: number;
  private readonly now: () => string;
  private readonly secrets: () => readonly string[];
  private readonly batchSize: number;
  private buffer: (SyncLogEntryInput & { at: string })[] = [];
  private flushScheduled = false;
  private closed = false;
  /** Per-log random salt for pseudonyms in diagnostics (stable across reports from this log). */
  readonly salt: string;

  constructor(
    readonly file: string,
    options: SyncLogOptions & { nativeBinding?: string } = {},
  ) {
    this.maxRows = options.maxRows ?? 5000;
    this.now = options.now ?? (() => new Date().toISOString());
    this.secrets = options.secrets ?? (() => []);
    this.batchSize = options.batchSize ?? 100;
    // What was synced when, with ids and problems: the person's alone (0600, -wal and -shm too).
    prepareOwnerOnlyDatabase(file);
    this.db = new Database(file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
    this.db.pragma('journal_mode = WAL');
    tightenDatabaseFiles(file);
    this.db.pragma('synchronous = NORMAL');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS sync_log (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at TEXT NOT NULL,
        level TEXT NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        method TEXT,
        path TEXT,
        status INTEGER,
        duration_ms INTEGER,
        request_id TEXT,
        operation TEXT,
        detail TEXT
      );
      CREATE INDEX IF NOT EXISTS sync_log_by_level ON sync_log (level, id);
      CREATE INDEX IF NOT EXISTS sync_log_by_kind ON sync_log (kind, id);
      CREATE TABLE IF NOT EXISTS sync_log_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS collection_freshness (
        collection TEXT PRIMARY KEY,
        checked_at TEXT,
        changed_at TEXT
      );
    `);
    this.db
      .prepare('INSERT OR IGNORE INTO sync_log_meta (key, value) VALUES (?, ?)')
      .run('salt', randomBytes(16).toString('hex'));
    this.salt = (
      this.db.prepare("SELECT value FROM sync_log_meta WHERE key = 'salt'").get() as { value: string }
    ).value;
  }

  /** Adds an entry (written with the next batch, redacted and clipped). */
  add(entry: SyncLogEntryInput): void {
    if (this.closed) return;
    this.buffer.push({ ...entry, at: this.now() });
    if (this.buffer.length >= this.batchSize) this.flush();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        this.flush();
      });
    }
  }

  /** Writes what is buffered in one transaction and prunes beyond `maxRows`. */
  flush(): void {
    if (this.closed || this.buffer.length === 0) return;
    const entries = this.buffer;
    this.buffer = [];
    const secrets = this.secrets();
    const text = (value: string | null | undefined, max: number) =>
      value === null || value === undefined ? null : redactClipped(value, max, secrets);
    const insert = this.db.prepare(
      `INSERT INTO sync_log (at, level, kind, message, method, path, status, duration_ms, request_id, operation, detail)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const prune = this.db.prepare('DELETE FROM sync_log WHERE id <= (SELECT max(id) FROM sync_log) - ?');
    this.db.transaction(() => {
      for (const e of entries) {
        const detail =
          e.detail === null || e.detail === undefined
            ? null
            : clip(JSON.stringify(redactLogValue(e.detail, secrets, MAX_DETAIL_CHARS)), MAX_DETAIL_CHARS);
        insert.run(
          e.at,
          e.level,
          e.kind,
          text(e.message, MAX_MESSAGE_CHARS) ?? '',
          e.method ?? null,
          text(e.path, MAX_PATH_CHARS),
          e.status ?? null,
          e.durationMs === null || e.durationMs === undefined ? null : Math.round(e.durationMs),
          text(e.requestId, 200),
          text(e.operation, 200),
          detail,
        );
      }
      prune.run(this.maxRows);
    })();
  }

  /** Newest first, filtered by words, levels and kinds. */
  query(query: SyncLogQuery = {}): SyncLogPage {
    this.flush();
    const limit = Math.min(Math.max(query.limit ?? 200, 1), 1000);
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.beforeId !== undefined) {
      where.push('id < ?');
      params.push(query.beforeId);
    }
    if (query.levels && query.levels.length > 0) {
      where.push(`level IN (${query.levels.map(() => '?').join(', ')})`);
      params.push(...query.levels);
    }
    if (query.kinds && query.kinds.length > 0) {
      where.push(`kind IN (${query.kinds.map(() => '?').join(', ')})`);
      params.push(...query.kinds);
    }
    for (const word of (query.text ?? '').split(/\s+/).filter((w) => w !== '')) {
      where.push(
        `(coalesce(message, '') || ' ' || coalesce(path, '') || ' ' || coalesce(operation, '') || ' ' ||
          coalesce(request_id, '') || ' ' || coalesce(CAST(status AS TEXT), '') || ' ' || coalesce(detail, ''))
          LIKE ? ESCAPE '\\'`,
      );
      params.push(`%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    const rows = this.db
      .prepare(
        `SELECT * FROM sync_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`,
      )
      .all(...params, limit + 1) as Row[];
    const page = rows.slice(0, limit).map(entryOf);
    return { entries: page, nextBeforeId: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
  }

  /**
   * Notes that a collection was asked of the server (`checked`, any answer
   * including 304) or brought remote changes (`changed`), now. Kept apart
   * from the entries so pruning never loses it.
   */
  noteCollection(collection: string, what: 'checked' | 'changed'): void {
    if (this.closed) return;
    const column = what === 'checked' ? 'checked_at' : 'changed_at';
    this.db
      .prepare(
        `INSERT INTO collection_freshness (collection, ${column}) VALUES (?, ?)
         ON CONFLICT (collection) DO UPDATE SET ${column} = excluded.${column}`,
      )
      .run(collection, this.now());
  }

  /** When each collection was last checked and last changed, by collection name. */
  collections(): CollectionFreshness[] {
    return (
      this.db
        .prepare('SELECT collection, checked_at, changed_at FROM collection_freshness ORDER BY collection')
        .all() as { collection: string; checked_at: string | null; changed_at: string | null }[]
    ).map((row) => ({ collection: row.collection, checkedAt: row.checked_at, changedAt: row.changed_at }));
  }

  /** How many entries are kept now. */
  count(): number {
    this.flush();
    return (this.db.prepare('SELECT count(*) AS n FROM sync_log').get() as { n: number }).n;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.db.close();
  }
}

/** The entry of a row: the columns named alike taken as they are (in the table's order), the rest renamed. */
function entryOf(row: Row): SyncLogEntry {
  const { duration_ms, request_id, operation, detail, ...alike } = row;
  return {
    ...alike,
    durationMs: duration_ms,
    requestId: request_id,
    operation,
    detail: detail === null ? null : (parseDetail(detail) as Record<string, unknown> | null),
  };
}

function parseDetail(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // A clipped detail is no longer JSON: kept as text.
    return { clipped: text };
  }
}

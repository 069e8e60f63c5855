// The mirror's errors as typed values: callers branch on the class and its
// `problem` / `field`, never on message text.

/** What is wrong with the database file itself. */
export type StorageProblem = 'locked' | 'read-only' | 'full' | 'corrupt' | 'cannot-open' | 'io' | 'closed';

const ADVICE: Record<StorageProblem, string> = {
  locked: 'another process holds the mirror; close other copies of the app and try again',
  'read-only': 'the mirror file or its folder cannot be written; check permissions and free the disk',
  full: 'the disk (or the mirror size limit) is full; free space and try again',
  corrupt:
    'the mirror file is damaged; it will be rebuilt from the server (unsent edits are in the outbox export)',
  'cannot-open': 'the mirror file cannot be opened; check that its folder exists and is writable',
  io: 'the disk reported an input/output error; check the disk',
  closed: 'the mirror was closed; open it again',
};

/** The database file is locked, read-only, full, corrupt or unreadable. */
export class MirrorStorageError extends Error {
  override readonly name = 'MirrorStorageError';
  constructor(
    readonly problem: StorageProblem,
    readonly file: string,
    /** The SQLite result code, e.g. `SQLITE_BUSY`. */
    readonly code: string | null,
    options?: { cause?: unknown },
  ) {
    super(`mirror ${file}: ${problem} (${code ?? 'no code'}): ${ADVICE[problem]}`, options);
  }
}

function problemOfCode(code: string): StorageProblem | null {
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return 'locked';
  if (code.startsWith('SQLITE_READONLY')) return 'read-only';
  if (code === 'SQLITE_FULL') return 'full';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'corrupt';
  if (code.startsWith('SQLITE_CANTOPEN')) return 'cannot-open';
  if (code.startsWith('SQLITE_IOERR')) return 'io';
  return null;
}

/**
 * Turns a better-sqlite3 failure about the file into a MirrorStorageError;
 * anything else (a bug, a typed mirror error) is returned unchanged.
 */
export function asStorageError(error: unknown, file: string): unknown {
  if (error instanceof MirrorStorageError) return error;
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code === 'string') {
      const problem = problemOfCode(code);
      if (problem) return new MirrorStorageError(problem, file, code, { cause: error });
    }
    if (error instanceof TypeError && /database connection is not open/.test(error.message)) {
      return new MirrorStorageError('closed', file, null, { cause: error });
    }
  }
  return error;
}

/** A resource from the server that the mirror refuses to store (it keeps its previous copy). */
export class MalformedRowError extends Error {
  override readonly name = 'MalformedRowError';
  constructor(
    /** The collection, e.g. `tasks`. */
    readonly resource: string,
    /** The resource's id when it has a usable one. */
    readonly id: string | null,
    /** The offending field, e.g. `due_date`. */
    readonly field: string,
    readonly reason: string,
  ) {
    super(`${resource}${id === null ? '' : ` ${id}`}: field '${field}' ${reason}`);
  }
}

/** A local edit the mirror refuses before queueing it (unknown field, wrong type, out of bounds). */
export class InvalidEditError extends Error {
  override readonly name = 'InvalidEditError';
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(`cannot set '${field}': ${reason}`);
  }
}

/** The task (or operation, conflict, stored page) named is not in the mirror. */
export class NotInMirrorError extends Error {
  override readonly name = 'NotInMirrorError';
  constructor(
    readonly kind: 'task' | 'comment' | 'resource' | 'operation' | 'conflict' | 'page',
    readonly id: string,
  ) {
    super(`${kind} ${id} is not in the mirror`);
  }
}

/** An outbox operation asked to move in a way its state does not allow (e.g. completing a queued op). */
export class OutboxStateError extends Error {
  override readonly name = 'OutboxStateError';
  constructor(
    readonly opId: string,
    readonly state: string,
    readonly wanted: string,
  ) {
    super(`operation ${opId} is ${state}; cannot ${wanted}`);
  }
}

/** A pass over a list cannot be completed: some page of it was not applied in this pass. */
export class IncompletePassError extends Error {
  override readonly name = 'IncompletePassError';
  constructor(
    readonly collection: string,
    readonly scope: string,
    readonly missingPage: number,
  ) {
    super(`${collection}${scope ? ` (${scope})` : ''}: page ${missingPage} was not fetched in this pass`);
  }
}

/** The file's schema is not one this version of the app can use (made by a newer app, or a migration failed). */
export class MirrorVersionError extends Error {
  override readonly name = 'MirrorVersionError';
  constructor(
    readonly file: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(
      `mirror ${file}: ${detail}; update the app, or remove the file to rebuild it from the server`,
      options,
    );
  }
}

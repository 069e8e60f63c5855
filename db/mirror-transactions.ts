// The mirror's transaction discipline as its parts see it: every write of a
// part runs through `write` (one immediate transaction, the right durability,
// word-index upkeep, file problems as MirrorStorageError), every read through `read`.

/**
 * How a write commits. `local`, a person's change the app acknowledges:
 * synchronous=FULL, the WAL fsynced before the call returns (see
 * open-mirror.ts). `server`, data fetched again if lost: NORMAL. `interim`:
 * NORMAL, the WAL then flushed on libuv's threads (Mirror.logFlushed says
 * when), so that main never waits on the disk for it; what the person is told
 * done waits for that flush (writeWhenFree: every write on the app's main
 * thread, a bulk change's chunks once at its end).
 */
export type Durability = 'local' | 'server' | 'interim';

/** How a part's writes and reads run on the mirror's connection (db/mirror.ts implements it). */
export interface MirrorTransactions {
  /**
   * Runs `work` as one immediate transaction (a savepoint when one is open);
   * `server` data commits without fsync, a person's edit (`local`, the default) with it.
   */
  write<T>(work: () => T, durability?: 'local' | 'server'): T;
  /** Runs a read; file problems become MirrorStorageError. */
  read<T>(work: () => T): T;
  /** The current time as ISO 8601 (the mirror's clock). */
  now(): string;
  /** Changes whenever the data may have (this connection's writes, other connections' commits): caches compare it. */
  version(): string;
}

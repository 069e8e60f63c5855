// The sync log's levels and kinds, apart from its storage so the IPC contract
// can name them without pulling SQLite into what the renderer's types see.
export const SYNC_LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type SyncLogLevel = (typeof SYNC_LOG_LEVELS)[number];

/** What an entry is about. */
export const SYNC_LOG_KINDS = [
  'request',
  'retry',
  'sync',
  'push',
  'merge',
  'conflict',
  'changes',
  'connectivity',
  'auth',
  'error',
] as const;
export type SyncLogKind = (typeof SYNC_LOG_KINDS)[number];

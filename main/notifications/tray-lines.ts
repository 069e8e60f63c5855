// Each followed account as one tray line: its name and organization, its
// status as the sync events left it, and the outbox tally. The tray menu and
// the account panel both start from these lines.
import type { Mirror } from '../../db/mirror';
import { MirrorStorageError } from '../../db/mirror-errors';
import type { OutboxCounts } from '../../db/outbox/outbox-counts';
import { offlineReasonWords, type TrayAccount } from '../../services/notify/tray-model';
import type { WatchedAccount } from './watched-account';

/** The account's tray line; null when its mirror closed (the account left). */
export function trayLine(watched: WatchedAccount, utcOffsetMinutes: number): TrayAccount | null {
  const { runtime, sync } = watched;
  let counts: OutboxCounts;
  let organization: string | null;
  const identity = runtime.record.identity;
  try {
    counts = runtime.mirror.outbox.counts();
    organization = organizationName(runtime.mirror, identity.org_id);
  } catch (error) {
    // An account whose mirror closed before the accounts event reached us
    // (signed out, dropped, shutting down) has left: the tray skips it,
    // and a timer's tray update never throws in the main process.
    if (error instanceof MirrorStorageError && error.problem === 'closed') return null;
    throw error;
  }
  return {
    accountId: runtime.id,
    label: `${identity.username}${organization === null ? '' : ` · ${organization}`}`,
    state: runtime.status.state,
    connection: sync.connection,
    offlineReason: sync.problem === null ? null : offlineReasonWords(sync.problem, utcOffsetMinutes),
    syncing: sync.syncing,
    pending: counts.pending,
    conflicts: counts.conflicts,
    failed: counts.failed,
    blocked: counts.blocked,
    unseen: watched.notifier.unseenCount(),
  };
}

/** The organization's name as mirrored, else its id (null without one). */
function organizationName(mirror: Mirror, orgId: string | null): string | null {
  if (orgId === null) return null;
  const name = mirror.collections.list('organizations').find((o) => o.org_id === orgId)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name : orgId;
}

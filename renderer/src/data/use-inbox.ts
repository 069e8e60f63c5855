// The inbox as React state: the account's entries and unread count, read
// through the bridge and read again on any change of the mirror (a pull that
// brought news, entries marked read here or in another window).
import type { Inbox } from '../../../ipc/inbox-schemas';
import { invoke } from '../bridge/svc';
import { type BridgeRead, useBridgeRead } from './use-bridge-read';

export function useInbox(): BridgeRead<Inbox> {
  return useBridgeRead('inbox:list', undefined, { reloadOn: {} });
}

/** Marks entries read (every entry when `ids` is left out); the readers reload on the change main emits. */
export async function markInboxRead(ids?: readonly number[]): Promise<void> {
  await invoke('inbox:mark-read', ids === undefined ? {} : { ids: [...ids] });
}

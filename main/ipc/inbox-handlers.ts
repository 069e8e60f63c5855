// The inbox calls: the signed-in account's change feed read as an inbox (the
// entries for its person, newest first, and how many are unread), and marking
// read, which tells the screens and the tray (its count is the same unread).
import { writeWhenFree } from '../../db/write-when-free';
import type { Notification } from '../../db/passes/change-feed';
import type { InboxEntry } from '../../ipc/inbox-schemas';
import type { IpcGate, IpcHandlers } from './gate';
import { type ActiveMirror, signedInAccount } from './task-handlers';

/** Entries listed at most: the newest (the rest are still kept for INBOX_DAYS and counted). */
export const INBOX_LIMIT = 500;

export interface InboxHandlerDependencies {
  readonly active: () => ActiveMirror | null;
  readonly emit: IpcGate['emit'];
  /** Entries were marked read: the tray's count follows. */
  readonly read?: () => void;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function entryOf(n: Notification): InboxEntry {
  const { title, by, ...detail } = n.summary;
  return {
    id: n.id,
    kind: n.kind,
    entity_type: n.entityType,
    entity_id: n.entityId,
    title: text(title) ?? '',
    by: text(by),
    detail,
    created_at: n.createdAt,
    read: n.seenAt !== null,
  };
}

export function inboxHandlers(dependencies: InboxHandlerDependencies): IpcHandlers {
  const active = () => signedInAccount(dependencies.active);
  return {
    'inbox:list': () => {
      const { mirror, me } = active();
      return {
        entries: mirror.feed.list(me.username, { limit: INBOX_LIMIT }).map(entryOf),
        unread: mirror.feed.unseenCount(me.username),
      };
    },
    'inbox:mark-read': async ({ ids }) => {
      const account = active();
      const { mirror, me } = account;
      await writeWhenFree(mirror, () => {
        if (ids === undefined) mirror.feed.markAllSeen(me.username);
        else mirror.feed.markSeen(ids);
      });
      dependencies.emit('mirror:changed', {
        account_id: account.accountId,
        collections: ['inbox'],
        task_ids: [],
        remapped: [],
      });
      dependencies.read?.();
      return null;
    },
  };
}

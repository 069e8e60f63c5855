// The IPC handlers of the sync log, diagnostics, the account panel, pause and
// notification settings: each parses nothing itself (the gate did), calls the
// visibility or the settings store, and maps the answer to its channel's shape.
import type { SyncLog } from '../../sync/sync-log/sync-log';
import { IpcHandlerError, type IpcHandlers } from '../ipc/gate';
import type { SyncAccountsView } from '../../ipc/visibility-schemas';
import type { NotificationSettingsStore } from './notification-settings-store';

/** What the handlers call (AccountVisibility has it). */
export interface VisibilityActions {
  log(accountId: string | null | undefined): { accountId: string; log: SyncLog };
  diagnostics(accountId: string | null | undefined): string;
  accountsView(): SyncAccountsView;
  pause(): Promise<void>;
  resume(): void;
}

export function visibilityHandlers(
  visibility: VisibilityActions,
  settings: NotificationSettingsStore,
  writeClipboard: ((text: string) => void) | undefined,
): IpcHandlers {
  return {
    'sync-log:query': (input) => {
      const { accountId, log } = visibility.log(input.account_id);
      const page = log.query({
        ...(input.text !== undefined ? { text: input.text } : {}),
        ...(input.levels !== undefined ? { levels: input.levels } : {}),
        ...(input.kinds !== undefined ? { kinds: input.kinds } : {}),
        ...(input.before_id !== undefined ? { beforeId: input.before_id } : {}),
        ...(input.limit !== undefined ? { limit: input.limit } : {}),
      });
      return {
        account_id: accountId,
        next_before_id: page.nextBeforeId,
        entries: page.entries.map((e) => ({
          id: e.id,
          at: e.at,
          level: e.level,
          kind: e.kind,
          message: e.message,
          method: e.method,
          path: e.path,
          status: e.status,
          duration_ms: e.durationMs,
          request_id: e.requestId,
          operation: e.operation,
          detail: e.detail,
        })),
      };
    },
    'sync-log:copy-diagnostics': (input) => {
      const text = visibility.diagnostics(input?.account_id);
      if (writeClipboard) writeClipboard(text);
      return { text, copied: writeClipboard !== undefined };
    },
    'sync:accounts': () => visibility.accountsView(),
    'sync:pause': async () => {
      await visibility.pause();
      return { paused: true };
    },
    'sync:resume': () => {
      visibility.resume();
      return { paused: false };
    },
    'notification-settings:get': () => settings.get(),
    'notification-settings:set': (patch) => {
      try {
        return settings.update(patch);
      } catch {
        throw new IpcHandlerError('invalid-settings', 'These notification settings cannot be saved.');
      }
    },
  };
}

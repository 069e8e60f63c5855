// Everything behind the screens' channels, wired once for both hosts: main
// (Electron) and the end-to-end host (a browser over HTTP) build the same
// handler maps here from an AccountManager whose accounts each run a real
// SyncEngine over their mirror, and forward the same events. Only how the
// gate reaches the page differs. No Electron here.
import type { Mirror } from '../../db/mirror';
import type { AccountManager } from '../../sync/accounts/account-manager';
import { readOnlyKindsOf } from '../../sync/accounts/account-summary';
import type { AccountRuntime } from '../../sync/accounts/account-runtime';
import type { ServerSettings as AccountServerSettings } from '../../sync/accounts/server-settings';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import { accountHandlers, accountList, accountSummary, type DemoServer } from './account-handlers';
import { type IpcGate, IpcHandlerError, type IpcHandlers } from './gate';
import { attachmentHandlers } from './attachment-handlers';
import { collectionHandlers } from './collection-handlers';
import { commentHandlers } from './comment-handlers';
import { draftHandlers } from './draft-handlers';
import { inboxHandlers } from './inbox-handlers';
import { outboxHandlers } from './outbox-handlers';
import type { AccountSummary, MirrorChanged } from '../../ipc/screen-schemas';
import { SyncStatusBoard, type StatusAccount } from './sync-status-board';
import { type ActiveMirror, taskHandlers } from './task-handlers';
import { bulkHandlers } from './bulk-handlers';
import { undoHandlers } from './undo-handlers';
import { undoHistoryOf } from '../../db/undo/undo-history';

export interface ScreenBackendOptions {
  /** Opened with its default engines (sync/engine's SyncEngine per account), started at sign-in. */
  readonly accounts: AccountManager;
  readonly emit: IpcGate['emit'];
  readonly serverDefaults: () => Partial<AccountServerSettings>;
  readonly openUrl: (url: string) => void | Promise<void>;
  /** Main's own question before sign-ins are kept without a keychain (AccountHandlerDependencies). */
  readonly confirmKeepWithoutKeychain: () => Promise<boolean>;
  /** Starts the local emulator with sample data (main: startEmulator; called once). */
  readonly startDemo: () => Promise<DemoServer>;
  readonly now?: () => Date;
  /** How often progress and pulled pages reach the screens (ms). */
  readonly throttleMs?: number;
  /** Whether the person paused syncing (the account manager owns it); "sync now" is refused meanwhile. */
  readonly paused?: () => boolean;
  /** The person marked inbox entries read (the tray's count follows). */
  readonly inboxRead?: () => void;
  /** Main's file picker for attachments (several files); none: nothing can be added. */
  readonly pickFiles?: () => Promise<string[]>;
  /** The system's default app for a file (`shell.openPath`: '' when it opened); none: nothing is opened. */
  readonly openPath?: (path: string) => Promise<string>;
}

export interface ScreenBackend {
  /** Register each with the gate. */
  readonly handlers: readonly IpcHandlers[];
  /** What "Try the demo" does, for `npm run demo` to do at launch: start the demo server, sign in, show it. */
  signInToDemo(): Promise<AccountSummary>;
  /** Tells the screens every account's status again (sync was paused or resumed). */
  announceStatus(): void;
  close(): void;
}

type Runtime = AccountRuntime<Mirror, SyncEngine>;

function statusAccount(runtime: Runtime): StatusAccount {
  return {
    accountId: runtime.id,
    mirror: runtime.mirror,
    signedIn: runtime.session !== null,
    readOnly: runtime.record.read_only,
    sync: runtime.sync,
  };
}

export function createScreenBackend(options: ScreenBackendOptions): ScreenBackend {
  const { accounts, emit } = options;
  let demo: Promise<DemoServer> | null = null;
  let demoBaseUrl: string | null = null;
  const startDemo = () => {
    demo ??= options.startDemo().then(
      (started) => {
        demoBaseUrl = started.server.base_url;
        return started;
      },
      (error: unknown) => {
        demo = null;
        throw error;
      },
    );
    return demo;
  };

  /** Every `mirror:changed` from pulls, pushes and fetched activity also reaches these (the task handlers' caches). */
  const changeListeners = new Set<(change: MirrorChanged) => void>();
  const emitChanged = (change: MirrorChanged) => {
    for (const listener of changeListeners) listener(change);
    emit('mirror:changed', change);
  };

  const board = new SyncStatusBoard({
    emitStatus: (status) => emit('sync:status-changed', status),
    emitChanged,
    emitUploadProgress: (progress) => emit('attachment:upload-progress', progress),
    ...(options.throttleMs !== undefined ? { throttleMs: options.throttleMs } : {}),
    ...(options.paused ? { paused: options.paused } : {}),
  });

  const stop = accounts.subscribe((event) => {
    if (event.type === 'accounts-changed') {
      emit('accounts:changed', accountList(accounts, demoBaseUrl));
      for (const runtime of accounts.list().map((account) => accounts.runtime(account.id))) {
        board.announce(statusAccount(runtime));
      }
      return;
    }
    let runtime: Runtime;
    try {
      runtime = accounts.runtime(event.account_id);
    } catch {
      return;
    }
    if (event.event.type === 'sync') {
      const syncEvent = event.event.event;
      board.onSyncEvent(statusAccount(runtime), syncEvent);
      // The organization's name arrives with the first sync: the account switcher shows it.
      if (syncEvent.type === 'sync-finished') emit('accounts:changed', accountList(accounts, demoBaseUrl));
    } else {
      board.announce(statusAccount(runtime));
    }
  });

  const active = (): ActiveMirror | null => {
    const runtime = accounts.currentRuntime();
    const session = runtime?.session;
    if (!runtime || !session) return null;
    const { identity } = runtime.record;
    return {
      accountId: runtime.id,
      mirror: runtime.mirror,
      me: { username: identity.username, user_id: identity.user_id },
      readOnly: runtime.record.read_only,
      readOnlyKinds: new Map(readOnlyKindsOf(runtime.record).map(({ kind, scope }) => [kind, scope])),
      edited: () => {
        runtime.session?.engine?.localEdit();
        board.announce(statusAccount(runtime));
      },
      serviceViewRows: (viewId, page) =>
        runtime.session?.engine?.serviceViewRows(viewId, page) ?? Promise.resolve(null),
      attachmentContent: (attachmentId, sha256) =>
        runtime.session?.engine?.attachmentContent(attachmentId, sha256) ?? Promise.resolve(false),
      refreshActivity: (taskId) => {
        // Offline, paused or refused: the cached activity stays on show; the next opening asks again.
        void runtime.session?.engine?.refreshTaskActivity(taskId).then((landed) => {
          if (landed) {
            emitChanged({
              account_id: runtime.id,
              collections: ['task_comments', 'task_history'],
              task_ids: [taskId],
              remapped: [],
            });
          }
        });
      },
    };
  };

  const current = (): Runtime => {
    const runtime = accounts.currentRuntime();
    if (!runtime) throw new IpcHandlerError('signed-out', 'No account is signed in.');
    return runtime;
  };

  // A create sent: the undo steps naming its temporary id follow it to the server's.
  changeListeners.add((change) => {
    if (change.remapped.length === 0 || change.account_id === null) return;
    let runtime: Runtime;
    try {
      runtime = accounts.runtime(change.account_id);
    } catch {
      return;
    }
    for (const { from, to } of change.remapped) undoHistoryOf(runtime.mirror).renamed(from, to);
  });

  const syncHandlers: IpcHandlers = {
    'sync:status': () => board.status(statusAccount(current())),
    'sync:now': () => {
      const runtime = current();
      const engine = runtime.session?.engine ?? null;
      if (options.paused?.()) throw new IpcHandlerError('sync-paused', 'Sync is paused: resume it first.');
      if (engine === null) {
        throw new IpcHandlerError('signed-out', 'Sign in again to sync this account.');
      }
      engine.syncNow().catch(() => {
        // The outcome reaches the screens as sync events (sync-failed, offline).
      });
      return null;
    },
  };

  return {
    handlers: [
      accountHandlers({
        accounts,
        serverDefaults: options.serverDefaults,
        openUrl: options.openUrl,
        confirmKeepWithoutKeychain: options.confirmKeepWithoutKeychain,
        startDemo,
        demoBaseUrl: () => demoBaseUrl,
      }),
      taskHandlers({
        active,
        emit,
        onMirrorChanged: (listener) => {
          changeListeners.add(listener);
          return () => changeListeners.delete(listener);
        },
        ...(options.now ? { now: options.now } : {}),
      }),
      syncHandlers,
      outboxHandlers({ active, emit }),
      commentHandlers({ active, emit }),
      draftHandlers({ active }),
      inboxHandlers({ active, emit, ...(options.inboxRead ? { read: options.inboxRead } : {}) }),
      collectionHandlers({ active, emit }),
      attachmentHandlers({
        active,
        emit,
        pickFiles: options.pickFiles ?? (() => Promise.resolve([])),
        openPath: options.openPath ?? (() => Promise.resolve('opening files is not available here')),
      }),
      bulkHandlers({ active, emit, ...(options.now ? { now: options.now } : {}) }),
      undoHandlers({ active, emit }),
    ],
    async signInToDemo() {
      const started = await startDemo();
      const result = await accounts.signInWithToken({ token: started.token, server: started.server });
      return accountSummary(accounts, await accounts.switchTo(result.account.id), demoBaseUrl);
    },
    announceStatus() {
      for (const account of accounts.list()) board.announce(statusAccount(accounts.runtime(account.id)));
    },
    close() {
      stop();
      board.close();
    },
  };
}

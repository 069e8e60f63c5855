// The sign-in screen's and the account switcher's calls, answered by the
// AccountManager: list, sign in with a pasted token or through the browser,
// cancel, switch, sign out, and "Try the demo". Errors leave with the type of
// the typed error behind them (the gate's table), so the screen words them. No Electron here.
import type { AccountManager } from '../../sync/accounts/account-manager';
import type { AccountSummary as ManagedAccount } from '../../sync/accounts/account-summary';
import type { ServerSettings as AccountServerSettings } from '../../sync/accounts/server-settings';
import { IpcHandlerError, type IpcHandlers } from './gate';
import type { AccountList, AccountSummary, ServerSettings } from '../../ipc/screen-schemas';

/** A local server with sample data and a token for it ("Try the demo"). */
export interface DemoServer {
  server: ServerSettings;
  token: string;
}

export interface AccountHandlerDependencies {
  readonly accounts: AccountManager;
  /** The server settings the sign-in form starts from. */
  readonly serverDefaults: () => Partial<AccountServerSettings>;
  /** Opens the consent page in the person's browser (main: shell.openExternal). */
  readonly openUrl: (url: string) => void | Promise<void>;
  /**
   * Main's own dialog: does the person want sign-ins kept without a keychain?
   * Asked before any is, so a renderer (a script that got into it, say) cannot
   * turn the tokens' protection off on its own.
   */
  readonly confirmKeepWithoutKeychain: () => Promise<boolean>;
  /** Starts (once) the local emulator seeded with sample data. */
  readonly startDemo: () => Promise<DemoServer>;
  /** The demo server's base URL once started (accounts on it are marked `demo`). */
  readonly demoBaseUrl: () => string | null;
}

export function accountSummary(
  accounts: AccountManager,
  account: ManagedAccount,
  demoBaseUrl: string | null,
): AccountSummary {
  let orgName: string | null = null;
  try {
    const organization = accounts
      .runtime(account.id)
      .mirror.collections.list('organizations')
      .find((org) => org.org_id === account.identity.org_id);
    orgName = typeof organization?.name === 'string' ? organization.name : null;
  } catch {
    // A closed or missing mirror: the organization's id stands in for its name.
  }
  return {
    account_id: account.id,
    username: account.identity.username,
    user_id: account.identity.user_id,
    org_id: account.identity.org_id ?? '',
    org_name: orgName,
    server: { base_url: account.base_url, auth_url: account.auth_url, client_id: account.client_id },
    read_only: account.read_only,
    read_only_kinds: account.read_only_kinds,
    state: account.state === 'signed-out' ? 'signed-out' : 'signed-in',
    current: account.current,
    demo: demoBaseUrl !== null && account.base_url === demoBaseUrl,
  };
}

export function accountList(accounts: AccountManager, demoBaseUrl: string | null): AccountList {
  const list = accounts.list();
  return {
    accounts: list.map((account) => accountSummary(accounts, account, demoBaseUrl)),
    current: list.find((account) => account.current)?.id ?? null,
  };
}

export function accountHandlers(dependencies: AccountHandlerDependencies): IpcHandlers {
  const { accounts } = dependencies;

  /** A sign-in shows the account it signed in to. */
  async function show(account: ManagedAccount): Promise<AccountSummary> {
    const shown = await accounts.switchTo(account.id);
    return accountSummary(accounts, shown, dependencies.demoBaseUrl());
  }

  return {
    'accounts:list': () => accountList(accounts, dependencies.demoBaseUrl()),

    'accounts:server-defaults': () => {
      const defaults = dependencies.serverDefaults();
      return {
        base_url: defaults.base_url ?? '',
        auth_url: defaults.auth_url ?? defaults.base_url ?? '',
        client_id: defaults.client_id ?? '',
      };
    },

    // With an account_id the sign-in is again to that account (its own server settings), and
    // only as its user in its organization: its queued edits then push.
    'accounts:sign-in-token': async ({ server, token, account_id }) => {
      const result = await accounts.signInWithToken({
        token,
        ...(account_id !== undefined ? { accountId: account_id } : { server }),
      });
      return show(result.account);
    },

    'accounts:start-oauth': async ({ server, account_id }) => {
      const result = await accounts.signInWithBrowser({
        openUrl: dependencies.openUrl,
        ...(account_id !== undefined ? { accountId: account_id } : { server }),
      });
      return show(result.account);
    },

    'accounts:cancel-oauth': () => {
      accounts.cancelSignIn();
      return null;
    },

    'accounts:switch': async ({ account_id }) =>
      accountSummary(accounts, await accounts.switchTo(account_id), dependencies.demoBaseUrl()),

    'accounts:sign-out': async ({ account_id, keep_pending }) => {
      await accounts.signOut(account_id, { keepQueuedEdits: keep_pending ?? true });
      return accountList(accounts, dependencies.demoBaseUrl());
    },

    'accounts:secret-storage': () => ({ persistence: accounts.secretPersistence }),

    'accounts:keep-sign-ins': async ({ keep }) => {
      const asked = keep && accounts.secretPersistence === 'session-only';
      // Declined: nothing changes, and the screen shows the storage as it stays.
      if (asked && !(await dependencies.confirmKeepWithoutKeychain())) {
        return { persistence: accounts.secretPersistence };
      }
      await accounts.setKeepSecretsWithoutKeychain(keep);
      return { persistence: accounts.secretPersistence };
    },

    'demo:start': async () => {
      let demo: DemoServer;
      try {
        demo = await dependencies.startDemo();
      } catch (error) {
        throw new IpcHandlerError('demo-failed', error instanceof Error ? error.message : String(error));
      }
      const result = await accounts.signInWithToken({ token: demo.token, server: demo.server });
      return show(result.account);
    },
  };
}

// What the app does with a link it was opened with: shows the window, routes
// the link over the signed-in accounts' mirrors (services/links/), switches to the
// account that holds the task, and leaves the request for the page to take.
// Also "Copy link". Electron-free: main/index.ts feeds it links, tests in Node.
import type { Mirror } from '../../db/mirror';
import type { AccountManager } from '../../sync/accounts/account-manager';
import type { SyncEngine } from '../../sync/engine/sync-engine';
import { formatTaskLink, parseTaskLink } from '../../services/links/task-link';
import {
  type LinkAccount,
  mirrorShowsTask,
  routeTaskLink,
  type TaskLinkRoute,
} from '../../services/links/task-link-router';
import { IpcHandlerError, type IpcHandlers } from '../ipc/gate';
import type { LinkProblem, LinkRequest } from '../../ipc/link-schemas';

export interface LinkServiceOptions {
  readonly accounts: AccountManager<Mirror, SyncEngine>;
  /** Tells the page a request waits (`link:received`); it takes it with `link:take`. */
  readonly announce: () => void;
  /** Shows (creating if needed) and focuses the main window. */
  readonly showWindow: () => void;
  readonly writeClipboard: (text: string) => void;
}

export interface LinkService {
  /** Acts on a link as the OS handed it (untrusted); answers what the page is told. */
  open(raw: string): Promise<LinkRequest>;
  readonly handlers: IpcHandlers;
}

const PROBLEMS: Record<Extract<TaskLinkRoute, { kind: 'refused' }>['problem'], LinkProblem> = {
  'not-ours': 'link-malformed',
  malformed: 'link-malformed',
  unsupported: 'link-unsupported',
  'task-not-found': 'link-task-not-found',
};

export function createLinkService(options: LinkServiceOptions): LinkService {
  const { accounts } = options;
  // The latest request only: a page that loads late takes it then; a newer link replaces an unread one.
  let waiting: LinkRequest | null = null;

  const linkAccounts = (): LinkAccount[] =>
    accounts.list().map((account) => ({
      id: account.id,
      state: account.state,
      showsTask: (taskId) => mirrorShowsTask(accounts.runtime(account.id).mirror, taskId),
    }));

  async function requestFor(raw: string): Promise<LinkRequest> {
    const route = routeTaskLink(raw, linkAccounts(), accounts.current()?.id ?? null);
    switch (route.kind) {
      case 'refused':
        return { kind: 'refused', problem: PROBLEMS[route.problem], reason: route.reason };
      case 'choose-account':
        return { kind: 'choose-account', task_id: route.taskId, account_ids: [...route.accountIds] };
      case 'open-task':
        if (accounts.current()?.id !== route.accountId) await accounts.switchTo(route.accountId);
        return { kind: 'open-task', account_id: route.accountId, task_id: route.taskId };
    }
  }

  return {
    async open(raw) {
      options.showWindow();
      const request = await requestFor(raw);
      waiting = request;
      options.announce();
      return request;
    },
    handlers: {
      'link:take': () => {
        const taken = waiting;
        waiting = null;
        return taken;
      },
      'task:copy-link': ({ task_id }) => {
        const url = formatTaskLink(task_id);
        // An id no link can carry (a slash, invisible characters): say so rather than copy a link that fails.
        if (!parseTaskLink(url).ok) {
          throw new IpcHandlerError('link-unavailable', 'This task cannot be named by a link.');
        }
        options.writeClipboard(url);
        return { url };
      },
    },
  };
}

// The session as the page knows it: which accounts exist, which one the
// window shows, its sync status, the theme, and the problem on show. Filled
// from the bridge at start and kept current by its events.
import { create } from 'zustand';
import type { RendererSettings, ThemePreference } from '../../../ipc/contract';
import type { AccountList, AccountSummary, SecretStorage, SyncStatus } from '../../../ipc/screen-schemas';
import { errorType, invoke, subscribe } from '../bridge/svc';
import { statusCounts } from '../vocabulary/status-counts';
import { flushDrafts, refreshDraftMarks } from './draft-store';
import { useView } from './view-store';

/** A problem shown to the person, by type (see problems/describe-problem.ts). */
export interface Notice {
  type: string;
  /** What was being done, e.g. "Saving the title"; shown before the explanation. */
  context: string | null;
  /** Bumped for every notice, so the same problem twice is shown twice. */
  id: number;
}

export interface SessionState {
  /** `starting` until the first answers arrived; then the sign-in screen or the workspace. */
  phase: 'starting' | 'sign-in' | 'workspace';
  accounts: AccountSummary[];
  current: AccountSummary | null;
  status: SyncStatus | null;
  theme: ThemePreference;
  notice: Notice | null;
  /** The person asked to add an account while signed in (the sign-in screen shows over the workspace). */
  addingAccount: boolean;
  /** Whether sign-ins outlive a restart; null until known. The sign-in screen says so when they do not. */
  secretStorage: SecretStorage['persistence'] | null;
  /** Sign-out asked for while changes are still unsent: the confirmation on show. */
  signOutRequest: { accountId: string; waiting: number } | null;
}

export const useSession = create<SessionState>(() => ({
  phase: 'starting',
  accounts: [],
  current: null,
  status: null,
  theme: 'system',
  notice: null,
  addingAccount: false,
  secretStorage: null,
  signOutRequest: null,
}));

let noticeId = 0;

export function showProblem(error: unknown, context: string | null = null): void {
  useSession.setState({ notice: { type: errorType(error), context, id: ++noticeId } });
}

export function showNotice(type: string, context: string | null = null): void {
  useSession.setState({ notice: { type, context, id: ++noticeId } });
}

export function dismissNotice(): void {
  useSession.setState({ notice: null });
}

function applyAccounts(list: AccountList): void {
  const current = list.accounts.find((account) => account.account_id === list.current) ?? null;
  // Another account on show: a task open from the previous one does not belong to it.
  if (current?.account_id !== useSession.getState().current?.account_id) {
    useView.setState({ openTaskId: null, selectedTaskId: null, creating: false });
  }
  useSession.setState((state) => ({
    accounts: list.accounts,
    current,
    phase: current !== null && current.state === 'signed-in' ? 'workspace' : 'sign-in',
    addingAccount: current === null ? false : state.addingAccount,
  }));
  // Each account keeps its own drafts: the marks are read again for the one shown.
  if (useSession.getState().phase === 'workspace') void refreshDraftMarks();
}

function applyTheme(settings: RendererSettings): void {
  useSession.setState({ theme: settings.theme });
  // `system` leaves prefers-color-scheme in charge; the others pin the palette.
  if (settings.theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = settings.theme;
}

/** Reads the session and subscribes to its events; returns the function that unsubscribes. */
export function startSession(): () => void {
  const stops = [
    subscribe('accounts:changed', applyAccounts),
    subscribe('sync:status-changed', (status) => {
      if (status.account_id === useSession.getState().current?.account_id) useSession.setState({ status });
    }),
    subscribe('settings:changed', applyTheme),
  ];
  // Quitting with a draft still waiting for a pause in typing: it is sent to main as the page goes.
  const flushOnLeave = () => void flushDrafts();
  window.addEventListener('pagehide', flushOnLeave);
  stops.push(() => window.removeEventListener('pagehide', flushOnLeave));
  void (async () => {
    try {
      const [accounts, settings, secrets] = await Promise.all([
        invoke('accounts:list'),
        invoke('settings:get'),
        invoke('accounts:secret-storage'),
      ]);
      useSession.setState({ secretStorage: secrets.persistence });
      applyTheme(settings);
      applyAccounts(accounts);
      if (useSession.getState().phase === 'workspace') await refreshStatus();
    } catch (error) {
      useSession.setState({ phase: 'sign-in' });
      showProblem(error, 'Starting');
    }
  })();
  return () => {
    for (const stop of stops) stop();
  };
}

export async function refreshStatus(): Promise<void> {
  try {
    useSession.setState({ status: await invoke('sync:status') });
  } catch (error) {
    if (errorType(error) !== 'signed-out') showProblem(error, 'Reading the sync status');
  }
}

/** After a sign-in or a switch: the answer is the account now shown. */
export async function enterAccount(account: AccountSummary): Promise<void> {
  applyAccounts(await invoke('accounts:list'));
  if (useSession.getState().current?.account_id !== account.account_id) {
    useView.setState({ openTaskId: null, selectedTaskId: null, creating: false });
    useSession.setState({ current: account, phase: 'workspace' });
  }
  useSession.setState({ addingAccount: false, notice: null });
  await refreshStatus();
}

export async function switchAccount(accountId: string): Promise<void> {
  try {
    // A draft still waiting for a pause in typing is the account's being left: kept there first.
    await flushDrafts();
    await enterAccount(await invoke('accounts:switch', { account_id: accountId }));
  } catch (error) {
    showProblem(error, 'Switching account');
  }
}

export async function signOut(accountId: string, keepPending = true): Promise<void> {
  try {
    applyAccounts(await invoke('accounts:sign-out', { account_id: accountId, keep_pending: keepPending }));
  } catch (error) {
    showProblem(error, 'Signing out');
  }
}

/**
 * Sign out, asking first when changes have not reached the server: they can
 * be kept for the next sign-in to the same account, or dropped.
 */
export function requestSignOut(accountId: string): void {
  const { status } = useSession.getState();
  const waiting = status === null || status.account_id !== accountId ? 0 : statusCounts(status).unsettled;
  if (waiting > 0) useSession.setState({ signOutRequest: { accountId, waiting } });
  else void signOut(accountId);
}

export function cancelSignOut(): void {
  useSession.setState({ signOutRequest: null });
}

/** Without a real keychain: keep sign-ins between runs anyway, or for this session only. */
export async function setKeepSignIns(keep: boolean): Promise<void> {
  try {
    const answer = await invoke('accounts:keep-sign-ins', { keep });
    useSession.setState({ secretStorage: answer.persistence });
  } catch (error) {
    showProblem(error, 'Changing how sign-ins are kept');
  }
}

export async function setTheme(theme: ThemePreference): Promise<void> {
  try {
    applyTheme(await invoke('settings:set', { theme }));
  } catch (error) {
    showProblem(error, 'Changing the theme');
  }
}

export async function syncNow(): Promise<void> {
  try {
    await invoke('sync:now');
  } catch (error) {
    showProblem(error, 'Syncing');
  }
}

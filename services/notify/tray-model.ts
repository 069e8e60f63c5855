// What the tray shows, decided outside Electron: one line per account with its
// state and counts, the actions (sync now, pause or resume, open, quit), and
// which icon marks the whole: conflicts, then offline, then unseen changes.
import { changeCountWords, countChanges } from '../../protocol/change-state-words';
export interface TrayAccount {
  accountId: string;
  /** How the person knows the account (e.g. "mara · Acme"). */
  label: string;
  state: 'signed-in' | 'read-only' | 'signed-out';
  connection: 'online' | 'offline' | 'unknown';
  /** Why offline, in a few words ("rate-limited until 14:32"); null when not known. */
  offlineReason: string | null;
  syncing: boolean;
  /** Edits not sent yet (queued or being sent). */
  pending: number;
  conflicts: number;
  /** Edits the server refused. */
  failed: number;
  /** Edits not sent because the account may not make them. */
  blocked: number;
  /** Changes on the person's tasks they have not looked at: the inbox's unread entries. */
  unseen: number;
}

export interface TrayModelInput {
  appName: string;
  accounts: readonly TrayAccount[];
  /** The person paused syncing from the tray. */
  paused: boolean;
}

export type TrayIconVariant = 'normal' | 'unseen' | 'conflicts' | 'offline';

export type TrayAction =
  | { type: 'sync-now' }
  | { type: 'pause' }
  | { type: 'resume' }
  /** Shows the window on this account (null: as it was). */
  | { type: 'open'; accountId: string | null }
  /** "Restart to update to 0.3.0" (services/updates/update-tray.ts adds it). */
  | { type: 'restart-to-update' }
  | { type: 'quit' };

export type TrayMenuItem =
  { kind: 'separator' } | { kind: 'action'; label: string; action: TrayAction; enabled: boolean };

export interface TrayModel {
  icon: TrayIconVariant;
  tooltip: string;
  menu: TrayMenuItem[];
}

/** What went wrong for an account, as the status board keeps it. */
export interface AccountProblem {
  kind: string;
  type: string | null;
  message: string;
  /** ISO 8601: when the service said to try again. */
  retryAt: string | null;
}

/**
 * Why an account is offline, in a few words for the tray: "signed out",
 * "rate-limited until 14:32" (local time, `utcOffsetMinutes` east of UTC),
 * "server unreachable", else the problem's type.
 */
export function offlineReasonWords(problem: AccountProblem, utcOffsetMinutes: number): string {
  if (problem.kind === 'signed-out') return 'signed out';
  if (problem.type === 'rate-limit') {
    if (problem.retryAt === null) return 'rate-limited';
    const local = new Date(Date.parse(problem.retryAt) + utcOffsetMinutes * 60_000);
    const hh = String(local.getUTCHours()).padStart(2, '0');
    const mm = String(local.getUTCMinutes()).padStart(2, '0');
    return `rate-limited until ${hh}:${mm}`;
  }
  if (problem.kind === 'network') return 'server unreachable';
  return problem.type ?? problem.kind;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The state words of one account line, most important first. */
export function accountStateWords(account: TrayAccount, paused: boolean): string {
  const parts: string[] = [];
  if (account.state === 'signed-out') parts.push('Signed out');
  else {
    if (paused) parts.push('Paused');
    else if (account.connection === 'offline')
      parts.push(account.offlineReason ? `Offline (${account.offlineReason})` : 'Offline');
    else if (account.syncing) parts.push('Syncing…');
    else if (account.connection === 'online') parts.push('Up to date');
    else parts.push('Connecting…');
    if (account.state === 'read-only') parts.push('read-only');
  }
  // The waiting edits in the words of the status bar and the inspector (protocol/change-state-words).
  const { parts: waiting } = changeCountWords(
    countChanges([
      { state: 'queued', n: account.pending },
      { state: 'conflict', n: account.conflicts },
      { state: 'failed', n: account.failed },
      { state: 'blocked', n: account.blocked },
    ]),
  );
  parts.push(...waiting.map((part) => part.text));
  if (account.unseen > 0) parts.push(`${account.unseen} unread in inbox`);
  return parts.join(' · ');
}

function iconOf(input: TrayModelInput): TrayIconVariant {
  const { accounts, paused } = input;
  if (accounts.some((a) => a.conflicts > 0)) return 'conflicts';
  // Paused, offline or signed out: what the person sees may be stale, which matters more than news.
  const stale =
    accounts.length > 0 &&
    (paused || accounts.some((a) => a.state === 'signed-out' || a.connection === 'offline'));
  if (stale) return 'offline';
  if (accounts.some((a) => a.unseen > 0)) return 'unseen';
  return 'normal';
}

export function trayModel(input: TrayModelInput): TrayModel {
  const { accounts, paused } = input;
  const canSync = !paused && accounts.some((a) => a.state !== 'signed-out');
  const menu: TrayMenuItem[] = accounts.map((account) => ({
    kind: 'action',
    label: `${account.label} — ${accountStateWords(account, paused)}`,
    action: { type: 'open', accountId: account.accountId },
    enabled: true,
  }));
  if (accounts.length === 0) {
    menu.push({
      kind: 'action',
      label: 'No account signed in',
      action: { type: 'open', accountId: null },
      enabled: false,
    });
  }
  menu.push(
    { kind: 'separator' },
    { kind: 'action', label: 'Sync now', action: { type: 'sync-now' }, enabled: canSync },
    paused
      ? { kind: 'action', label: 'Resume sync', action: { type: 'resume' }, enabled: true }
      : {
          kind: 'action',
          label: 'Pause sync',
          action: { type: 'pause' },
          enabled: accounts.some((a) => a.state !== 'signed-out'),
        },
    { kind: 'separator' },
    {
      kind: 'action',
      label: `Open ${input.appName}`,
      action: { type: 'open', accountId: null },
      enabled: true,
    },
    { kind: 'action', label: 'Quit', action: { type: 'quit' }, enabled: true },
  );

  const conflicts = accounts.reduce((n, a) => n + a.conflicts, 0);
  const unseen = accounts.reduce((n, a) => n + a.unseen, 0);
  const pending = accounts.reduce((n, a) => n + a.pending, 0);
  const notes = [
    paused ? 'sync paused' : null,
    accounts.some((a) => a.state !== 'signed-out' && a.connection === 'offline') ? 'offline' : null,
    accounts.some((a) => a.state === 'signed-out') ? 'signed out' : null,
    conflicts > 0 ? plural(conflicts, 'conflict') : null,
    pending > 0 ? `${pending} pending` : null,
    unseen > 0 ? `${unseen} unread in inbox` : null,
  ].filter((note): note is string => note !== null);
  return {
    icon: iconOf(input),
    // Windows cuts tray tooltips at 127 characters.
    tooltip: `${input.appName}${notes.length > 0 ? ` — ${notes.join(', ')}` : ''}`.slice(0, 127),
    menu,
  };
}

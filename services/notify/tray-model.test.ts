// The tray model: account lines with state and counts, the actions and when
// they are enabled, the icon variant's precedence, and the tooltip.
import { describe, expect, test } from 'vitest';
import {
  type AccountProblem,
  offlineReasonWords,
  type TrayAccount,
  type TrayModelInput,
  trayModel,
} from './tray-model';

function account(overrides: Partial<TrayAccount> = {}): TrayAccount {
  return {
    accountId: 'acc_1',
    label: 'mara · Acme',
    state: 'signed-in',
    connection: 'online',
    offlineReason: null,
    syncing: false,
    pending: 0,
    conflicts: 0,
    failed: 0,
    blocked: 0,
    unseen: 0,
    ...overrides,
  };
}

const model = (input: Partial<TrayModelInput>) =>
  trayModel({ appName: 'svc-desktop', accounts: [account()], paused: false, ...input });

const labels = (input: Partial<TrayModelInput>) =>
  model(input).menu.map((i) => (i.kind === 'separator' ? '—' : i.label));

/** The menu's lines after the accounts when nothing is paused: a separator, the sync actions, the app's. */
const ACTION_LINES = ['—', 'Sync now', 'Pause sync', '—', 'Open svc-desktop', 'Quit'];

describe('account lines', () => {
  test.each([
    { overrides: {}, line: 'mara · Acme — Up to date' },
    { overrides: { connection: 'unknown' as const }, line: 'mara · Acme — Connecting…' },
    { overrides: { syncing: true, pending: 2 }, line: 'mara · Acme — Syncing… · 2 not sent yet' },
    {
      overrides: { connection: 'offline' as const, offlineReason: 'rate-limited until 14:32', pending: 1 },
      line: 'mara · Acme — Offline (rate-limited until 14:32) · 1 not sent yet',
    },
    { overrides: { connection: 'offline' as const }, line: 'mara · Acme — Offline' },
    {
      overrides: { state: 'signed-out' as const, pending: 3 },
      line: 'mara · Acme — Signed out · 3 not sent yet',
    },
    {
      overrides: { failed: 1 },
      line: 'mara · Acme — Up to date · 1 not saved',
    },
    {
      overrides: { state: 'read-only' as const, blocked: 2 },
      line: 'mara · Acme — Up to date · read-only · 2 read-only',
    },
    {
      overrides: { conflicts: 1, unseen: 4 },
      line: 'mara · Acme — Up to date · 1 conflict · 4 unread in inbox',
    },
    { overrides: { conflicts: 2 }, line: 'mara · Acme — Up to date · 2 conflicts' },
  ])('$line', ({ overrides, line }) => {
    const [first] = model({ accounts: [account(overrides)] }).menu;
    expect(first).toEqual({
      kind: 'action',
      label: line,
      action: { type: 'open', accountId: 'acc_1' },
      enabled: true,
    });
  });

  test('paused shows on every signed-in account', () => {
    expect(labels({ paused: true, accounts: [account({ syncing: true })] })[0]).toBe('mara · Acme — Paused');
  });

  test('one line per account, in order, then the actions', () => {
    expect(
      labels({ accounts: [account(), account({ accountId: 'acc_2', label: 'mara · Beta', unseen: 1 })] }),
    ).toEqual(['mara · Acme — Up to date', 'mara · Beta — Up to date · 1 unread in inbox', ...ACTION_LINES]);
  });
});

describe('actions', () => {
  const enabled = (input: Partial<TrayModelInput>) =>
    Object.fromEntries(model(input).menu.flatMap((i) => (i.kind === 'action' ? [[i.label, i.enabled]] : [])));

  test('paused: resume instead of pause, and no sync now', () => {
    const m = model({ paused: true });
    expect(m.menu).toContainEqual({
      kind: 'action',
      label: 'Resume sync',
      action: { type: 'resume' },
      enabled: true,
    });
    expect(enabled({ paused: true })['Sync now']).toBe(false);
  });

  test('all accounts signed out: nothing to sync or pause, open and quit still work', () => {
    expect(enabled({ accounts: [account({ state: 'signed-out' })] })).toMatchObject({
      'Sync now': false,
      'Pause sync': false,
      'Open svc-desktop': true,
      Quit: true,
    });
  });

  test('no account: a disabled note, then the actions', () => {
    expect(labels({ accounts: [] })).toEqual(['No account signed in', ...ACTION_LINES]);
    expect(model({ accounts: [] }).icon).toBe('normal');
  });
});

describe('icon', () => {
  test.each([
    { accounts: [account()], paused: false, icon: 'normal' },
    { accounts: [account({ unseen: 2 })], paused: false, icon: 'unseen' },
    { accounts: [account({ connection: 'offline' })], paused: false, icon: 'offline' },
    { accounts: [account({ state: 'signed-out' })], paused: false, icon: 'offline' },
    { accounts: [account({ unseen: 2 })], paused: true, icon: 'offline' },
    { accounts: [account({ unseen: 2, connection: 'offline' })], paused: false, icon: 'offline' },
    {
      accounts: [account({ conflicts: 1, connection: 'offline', unseen: 3 })],
      paused: false,
      icon: 'conflicts',
    },
    { accounts: [account(), account({ accountId: 'b', conflicts: 1 })], paused: false, icon: 'conflicts' },
    { accounts: [account({ pending: 5, connection: 'unknown' })], paused: false, icon: 'normal' },
  ] as const)('$icon for $accounts.0.connection, paused=$paused', ({ accounts, paused, icon }) => {
    expect(model({ accounts, paused }).icon).toBe(icon);
  });
});

test('the tooltip sums up every account and stays within 127 characters', () => {
  expect(model({}).tooltip).toBe('svc-desktop');
  expect(
    model({
      accounts: [
        account({ conflicts: 1, pending: 2 }),
        account({ accountId: 'b', connection: 'offline', unseen: 3 }),
      ],
    }).tooltip,
  ).toBe('svc-desktop — offline, 1 conflict, 2 pending, 3 unread in inbox');
  expect(model({ appName: 'x'.repeat(200) }).tooltip).toHaveLength(127);
});

describe('why an account is offline, in words', () => {
  const problem = (p: Partial<AccountProblem>): AccountProblem => ({
    kind: 'problem',
    type: null,
    message: '',
    retryAt: null,
    ...p,
  });
  test.each([
    ['signed out', problem({ kind: 'signed-out', type: 'token-revoked' }), 0, 'signed out'],
    [
      'rate-limited, in local time',
      problem({ type: 'rate-limit', retryAt: '2026-03-04T12:32:00.000Z' }),
      120,
      'rate-limited until 14:32',
    ],
    ['rate-limited without a time', problem({ type: 'rate-limit' }), 0, 'rate-limited'],
    ['the network', problem({ kind: 'network' }), 0, 'server unreachable'],
    ['another problem: its type', problem({ type: 'internal-error' }), 0, 'internal-error'],
  ])('%s', (_, input, offset, words) => {
    expect(offlineReasonWords(input, offset)).toBe(words);
  });
});

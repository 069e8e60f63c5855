// The notification decisions, table-driven over change lists: which kind of
// change notifies whom, what never does (own edits, echoes, the first sync),
// settings (kinds, master switch, quiet hours across midnight), grouping of
// bursts, and what clicking opens.
import { describe, expect, test } from 'vitest';
import {
  type ChangeCandidate,
  type ConflictCandidate,
  type DecisionInput,
  candidateOfFeedEntry,
  decideNotifications,
} from './notification-decisions';
import {
  DEFAULT_NOTIFICATION_SETTINGS,
  type NotificationSettings,
  applySettingsPatch,
  inQuietHours,
  readNotificationSettings,
} from './notification-settings';

const ME = { username: 'mara', user_id: 'usr_mara' };
const NOON_UTC = Date.parse('2026-03-10T12:00:00.000Z');

function change(overrides: Partial<ChangeCandidate> = {}): ChangeCandidate {
  return {
    feedId: 1,
    kind: 'task-assigned',
    taskId: 'tsk_1',
    title: 'Fix login',
    by: 'peer',
    detail: {},
    ...overrides,
  };
}

function conflict(overrides: Partial<ConflictCandidate> = {}): ConflictCandidate {
  return { taskId: 'tsk_9', title: 'Ship it', conflict: 'edited', fields: ['status'], ...overrides };
}

function decide(overrides: Partial<DecisionInput> = {}) {
  return decideNotifications({
    accountId: 'acc_1',
    me: ME,
    changes: [],
    conflicts: [],
    firstSync: false,
    ownPushes: [],
    settings: DEFAULT_NOTIFICATION_SETTINGS,
    nowMs: NOON_UTC,
    utcOffsetMinutes: 0,
    ...overrides,
  });
}

function settings(patch: Parameters<typeof applySettingsPatch>[1]): NotificationSettings {
  return applySettingsPatch(DEFAULT_NOTIFICATION_SETTINGS, patch);
}

describe('each kind of change', () => {
  test.each([
    {
      name: 'a task assigned to me by someone else',
      input: change({ kind: 'task-assigned', by: 'peer' }),
      title: 'Assigned to you',
      body: '“Fix login” by peer',
    },
    {
      name: 'a status change on my task',
      input: change({ kind: 'task-status-changed', detail: { from: 'in_progress', to: 'completed' } }),
      title: 'In progress → Done',
      body: '“Fix login” by peer',
    },
    {
      name: 'a status change to a status the app does not know',
      input: change({ kind: 'task-status-changed', detail: { from: 'not_started', to: 'in_review' } }),
      title: 'Not started → in review',
      body: '“Fix login” by peer',
    },
    {
      name: 'one new comment on my task',
      input: change({ kind: 'task-commented', detail: { count: 1 } }),
      title: 'New comment',
      body: 'On “Fix login” by peer',
    },
    {
      name: 'three new comments (a comment with replies) on my task',
      input: change({ kind: 'task-commented', detail: { count: 3 } }),
      title: '3 new comments',
      body: 'On “Fix login” by peer',
    },
    {
      name: 'a comment mentioning me',
      input: change({ kind: 'task-mentioned', detail: { excerpt: '@mara look' } }),
      title: 'peer mentioned you',
      body: 'On “Fix login”',
    },
    {
      name: 'a change whose author the service did not give, on a task we did not push',
      input: change({ by: null, title: '' }),
      title: 'Assigned to you',
      body: 'a task',
    },
  ])('$name notifies, opening the task', ({ input, title, body }) => {
    const decision = decide({ changes: [input] });
    expect(decision.show).toEqual([
      {
        tag: `acc_1:${input.kind}:tsk_1`,
        kind: input.kind,
        title,
        body,
        open: { accountId: 'acc_1', taskId: 'tsk_1' },
        feedIds: [1],
        count: 1,
      },
    ]);
    expect(decision.markSeen).toEqual([]);
  });

  test.each([
    {
      name: 'an edit that conflicts field by field',
      input: conflict({ fields: ['status', 'due_date'] }),
      body: '“Ship it”: status, due_date changed on both sides',
    },
    {
      name: 'an edit to a task deleted remotely',
      input: conflict({ conflict: 'deleted-remotely', fields: [] }),
      body: '“Ship it” was deleted on the server while you edited it',
    },
  ])('$name notifies that it needs me, opening the task', ({ input, body }) => {
    expect(decide({ conflicts: [input] }).show).toEqual([
      {
        tag: 'acc_1:task-conflict:tsk_9',
        kind: 'task-conflict',
        title: 'Your edit needs you',
        body,
        open: { accountId: 'acc_1', taskId: 'tsk_9' },
        feedIds: [],
        count: 1,
      },
    ]);
  });
});

describe('what is never news', () => {
  test.each([
    { name: 'my own edit, by username', input: change({ by: 'mara' }), reason: 'own-edit' },
    { name: 'my own edit, by user id', input: change({ by: 'usr_mara' }), reason: 'own-edit' },
    {
      name: 'an unattributed change to a task I pushed a minute ago (our echo)',
      input: change({ by: null }),
      pushes: [{ taskId: 'tsk_1', at: NOON_UTC - 60_000 }],
      reason: 'echo',
    },
  ])('$name: not shown, and marked seen', ({ input, pushes, reason }) => {
    const decision = decide({ changes: [input], ownPushes: pushes ?? [] });
    expect(decision.show).toEqual([]);
    expect(decision.markSeen).toEqual([1]);
    expect(decision.suppressed).toEqual([{ kind: input.kind, taskId: 'tsk_1', reason }]);
  });

  test('a change by someone else to a task I just pushed is still news', () => {
    const decision = decide({
      changes: [change({ by: 'peer' })],
      ownPushes: [{ taskId: 'tsk_1', at: NOON_UTC - 1000 }],
    });
    expect(decision.show).toHaveLength(1);
  });

  test('an unattributed change long after my push is news', () => {
    const decision = decide({
      changes: [change({ by: null })],
      ownPushes: [{ taskId: 'tsk_1', at: NOON_UTC - 10 * 60_000 }],
    });
    expect(decision.show).toHaveLength(1);
  });

  test('an unattributed change to another task than the one pushed is news', () => {
    const decision = decide({
      changes: [change({ by: null, taskId: 'tsk_2' })],
      ownPushes: [{ taskId: 'tsk_1', at: NOON_UTC - 1000 }],
    });
    expect(decision.show.map((n) => n.open.taskId)).toEqual(['tsk_2']);
  });

  test('nothing on the first sync: changes and conflicts stay unseen, unshown', () => {
    const decision = decide({ changes: [change()], conflicts: [conflict()], firstSync: true });
    expect(decision.show).toEqual([]);
    expect(decision.markSeen).toEqual([]);
    expect(decision.suppressed.map((s) => s.reason)).toEqual(['first-sync', 'first-sync']);
  });

  test('an own edit on the first sync is still marked seen', () => {
    expect(decide({ changes: [change({ by: 'mara' })], firstSync: true }).markSeen).toEqual([1]);
  });
});

describe('settings', () => {
  test.each([
    { kind: 'task-assigned', off: { 'task-assigned': false } },
    { kind: 'task-status-changed', off: { 'task-status-changed': false } },
    { kind: 'task-commented', off: { 'task-commented': false } },
  ] as const)('$kind switched off is not shown but stays unseen', ({ kind, off }) => {
    const decision = decide({
      changes: [
        change({ kind }),
        change({
          kind: kind === 'task-assigned' ? 'task-commented' : 'task-assigned',
          feedId: 2,
          taskId: 'tsk_2',
        }),
      ],
      settings: settings({ kinds: off }),
    });
    expect(decision.show.map((n) => n.kind)).not.toContain(kind);
    expect(decision.show).toHaveLength(1);
    expect(decision.markSeen).toEqual([]);
    expect(decision.suppressed).toEqual([{ kind, taskId: 'tsk_1', reason: 'kind-off' }]);
  });

  test('conflicts switched off are not shown', () => {
    const decision = decide({
      conflicts: [conflict()],
      settings: settings({ kinds: { 'task-conflict': false } }),
    });
    expect(decision.show).toEqual([]);
    expect(decision.suppressed).toEqual([{ kind: 'task-conflict', taskId: 'tsk_9', reason: 'kind-off' }]);
  });

  test('the master switch off shows nothing', () => {
    const decision = decide({
      changes: [change()],
      conflicts: [conflict()],
      settings: settings({ enabled: false }),
    });
    expect(decision.show).toEqual([]);
    expect(decision.suppressed.map((s) => s.reason)).toEqual(['disabled', 'disabled']);
  });

  // Quiet hours 22:00–08:00 wrap past midnight; 12:00–14:00 does not.
  test.each([
    { window: ['22:00', '08:00'], local: '23:30', offset: 0, quiet: true },
    { window: ['22:00', '08:00'], local: '03:00', offset: 0, quiet: true },
    { window: ['22:00', '08:00'], local: '22:00', offset: 0, quiet: true },
    { window: ['22:00', '08:00'], local: '08:00', offset: 0, quiet: false },
    { window: ['22:00', '08:00'], local: '12:00', offset: 0, quiet: false },
    { window: ['12:00', '14:00'], local: '13:59', offset: 0, quiet: true },
    { window: ['12:00', '14:00'], local: '14:00', offset: 0, quiet: false },
    { window: ['12:00', '14:00'], local: '11:59', offset: 0, quiet: false },
    { window: ['09:00', '09:00'], local: '09:00', offset: 0, quiet: false },
    // 21:30 UTC is 23:30 at UTC+2, inside; 23:30 UTC is 18:30 at UTC-5, outside.
    { window: ['22:00', '08:00'], utc: '21:30', offset: 120, quiet: true },
    { window: ['22:00', '08:00'], utc: '23:30', offset: -300, quiet: false },
    // UTC+5:30, a half-hour zone: 02:15 UTC is 07:45 local, still quiet; 02:45 is 08:15.
    { window: ['22:00', '08:00'], utc: '02:15', offset: 330, quiet: true },
    { window: ['22:00', '08:00'], utc: '02:45', offset: 330, quiet: false },
  ])(
    'quiet hours $window at $local$utc (offset $offset min): quiet=$quiet',
    ({ window, local, utc, offset, quiet }) => {
      const at = Date.parse(`2026-03-10T${utc ?? local}:00.000Z`);
      const quietHours = { enabled: true, start: window[0] as string, end: window[1] as string };
      expect(inQuietHours(quietHours, at, offset)).toBe(quiet);
      const decision = decide({
        changes: [change()],
        nowMs: at,
        utcOffsetMinutes: offset,
        settings: settings({ quiet_hours: quietHours }),
      });
      expect(decision.show).toHaveLength(quiet ? 0 : 1);
      expect(decision.markSeen).toEqual([]);
    },
  );

  test('quiet hours switched off never hold anything', () => {
    expect(inQuietHours({ enabled: false, start: '00:00', end: '23:59' }, NOON_UTC, 0)).toBe(false);
  });

  test('stored settings are read leniently: a partial or broken file keeps the defaults for the rest', () => {
    expect(readNotificationSettings(undefined)).toEqual(DEFAULT_NOTIFICATION_SETTINGS);
    expect(readNotificationSettings({ enabled: false })).toEqual({
      ...DEFAULT_NOTIFICATION_SETTINGS,
      enabled: false,
    });
    expect(readNotificationSettings({ quiet_hours: { start: '25:00' } })).toEqual(
      DEFAULT_NOTIFICATION_SETTINGS,
    );
  });

  test('a patch merges kinds and quiet hours field by field and refuses a bad time', () => {
    const patched = settings({ kinds: { 'task-commented': false }, quiet_hours: { enabled: true } });
    expect(patched.kinds).toEqual({ ...DEFAULT_NOTIFICATION_SETTINGS.kinds, 'task-commented': false });
    expect(patched.quiet_hours).toEqual({ enabled: true, start: '22:00', end: '08:00' });
    expect(() => settings({ quiet_hours: { end: '8:00' } })).toThrow();
  });
});

describe('grouping', () => {
  const assigned = (n: number) =>
    Array.from({ length: n }, (_, i) =>
      change({ feedId: i + 1, taskId: `tsk_${i + 1}`, title: `Task ${i + 1}` }),
    );

  test('three at once are shown one by one', () => {
    expect(decide({ changes: assigned(3) }).show.map((n) => n.kind)).toEqual([
      'task-assigned',
      'task-assigned',
      'task-assigned',
    ]);
  });

  test('more than three of a kind at once become one summary that opens the app', () => {
    const decision = decide({ changes: assigned(5) });
    expect(decision.show).toEqual([
      {
        tag: 'acc_1:task-assigned:summary:tsk_1,tsk_2,tsk_3,tsk_4,tsk_5',
        kind: 'summary',
        title: '5 tasks assigned to you',
        body: '“Task 1”, “Task 2”, “Task 3” and 2 more',
        open: { accountId: 'acc_1', taskId: null },
        feedIds: [1, 2, 3, 4, 5],
        count: 5,
      },
    ]);
  });

  test('a burst of several kinds: one summary per kind, a lone one shown as itself', () => {
    const decision = decide({
      changes: [
        ...assigned(2),
        change({ feedId: 10, kind: 'task-commented', taskId: 'tsk_10', detail: { count: 1 } }),
        change({ feedId: 11, kind: 'task-commented', taskId: 'tsk_11', detail: { count: 2 } }),
      ],
      conflicts: [conflict()],
    });
    expect(decision.show.map((n) => [n.kind, n.title, n.count])).toEqual([
      ['summary', '2 tasks assigned to you', 2],
      ['summary', 'New comments on 2 of your tasks', 2],
      ['task-conflict', 'Your edit needs you', 1],
    ]);
  });

  test('own edits do not count toward a burst', () => {
    const decision = decide({
      changes: [...assigned(3), change({ feedId: 99, taskId: 'tsk_99', by: 'mara' })],
    });
    expect(decision.show).toHaveLength(3);
    expect(decision.markSeen).toEqual([99]);
  });

  test('the same kind twice on one task in a poll is one notification standing for both entries', () => {
    const decision = decide({
      changes: [
        change({
          feedId: 1,
          kind: 'task-status-changed',
          detail: { from: 'not_started', to: 'in_progress' },
        }),
        change({ feedId: 2, kind: 'task-status-changed', detail: { from: 'in_progress', to: 'blocked' } }),
      ],
    });
    expect(decision.show).toEqual([
      expect.objectContaining({ title: 'In progress → Blocked', feedIds: [1, 2], count: 1 }),
    ]);
  });

  test('the threshold can be set', () => {
    expect(decide({ changes: assigned(2), groupAbove: 1 }).show.map((n) => n.kind)).toEqual(['summary']);
  });
});

describe('change feed entries as candidates', () => {
  test.each([
    {
      entry: {
        id: 4,
        kind: 'task-status-changed',
        entityType: 'task',
        entityId: 'tsk_4',
        summary: { title: 'T', by: 'peer', from: 'blocked', to: 'completed' },
      },
      candidate: {
        feedId: 4,
        kind: 'task-status-changed',
        taskId: 'tsk_4',
        title: 'T',
        by: 'peer',
        detail: { from: 'blocked', to: 'completed' },
      },
    },
    {
      entry: {
        id: 5,
        kind: 'task-commented',
        entityType: 'task',
        entityId: 'tsk_5',
        summary: { title: 7, count: 2 },
      },
      candidate: {
        feedId: 5,
        kind: 'task-commented',
        taskId: 'tsk_5',
        title: '',
        by: null,
        detail: { count: 2 },
      },
    },
    {
      entry: { id: 6, kind: 'project-renamed', entityType: 'task', entityId: 'x', summary: {} },
      candidate: null,
    },
    {
      entry: { id: 7, kind: 'task-assigned', entityType: 'sprint', entityId: 'x', summary: {} },
      candidate: null,
    },
  ])('feed entry $entry.id of kind $entry.kind', ({ entry, candidate }) => {
    expect(candidateOfFeedEntry(entry)).toEqual(candidate);
  });
});

describe("a teammate's text in a notification", () => {
  const hostile = `<a href="https://evil.example">Open</a> <img src=x onerror=alert(1)>Fix\nlogin\r\n\u202Etxt.exe\u202C ${'x'.repeat(10_000)}`;

  test('shows no markup, line breaks or bidi controls, and is cut to a bounded length', () => {
    const [shown] = decide({
      changes: [change({ title: hostile, by: 'pe<b>er</b>\u2066\nsecond line' })],
    }).show;
    expect(shown?.body.startsWith('“Open Fix login txt.exe xxx')).toBe(true);
    for (const text of [shown?.title ?? '', shown?.body ?? '']) {
      expect(text).not.toMatch(/[<>\n\r\u202A-\u202E\u2066-\u2069]/);
      expect([...text].length).toBeLessThanOrEqual(300);
    }
    expect(shown?.body).toContain('…');
  });

  test('a conflict names both values the same way, and a burst summary too', () => {
    const [edited] = decide({
      conflicts: [
        conflict({
          title: hostile,
          fields: ['sprint_id'],
          sides: [{ field: 'sprint_id', mine: 'S<script>1</script>', theirs: 'S\u202E2' }],
        }),
      ],
    }).show;
    expect(edited?.body).toContain('sprint ‘S 1’ here, ‘S2’ on the server');
    expect(edited?.body).not.toMatch(/[<>\n\u202E]/);
    const burst = decide({
      changes: [1, 2, 3, 4, 5].map((n) =>
        change({ feedId: n, taskId: `tsk_${n}`, title: `${hostile} ${n}` }),
      ),
    }).show;
    expect(burst).toHaveLength(1);
    expect(burst[0]?.body).not.toMatch(/[<>\n\u202E]/);
    expect([...(burst[0]?.body ?? '')].length).toBeLessThanOrEqual(300);
  });
});

test('mentions are a kind of their own in the settings: switched off, a mention stays unshown and unseen', () => {
  const decision = decide({
    changes: [change({ kind: 'task-mentioned' }), change({ feedId: 2, kind: 'task-commented' })],
    settings: settings({ kinds: { 'task-mentioned': false } }),
  });
  expect(decision.show.map((n) => n.kind)).toEqual(['task-commented']);
  expect(decision.suppressed).toEqual([{ kind: 'task-mentioned', taskId: 'tsk_1', reason: 'kind-off' }]);
  expect(decision.markSeen).toEqual([]);
  // Settings stored before mentions existed read with mentions on.
  const { 'task-mentioned': _left, ...before } = DEFAULT_NOTIFICATION_SETTINGS.kinds;
  expect(
    readNotificationSettings({ ...DEFAULT_NOTIFICATION_SETTINGS, kinds: before }).kinds['task-mentioned'],
  ).toBe(true);
});

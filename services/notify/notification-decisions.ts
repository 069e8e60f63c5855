// Decides which desktop notifications to show for one poll: from the change
// feed entries pull wrote (sync/pull/notifications.ts picks the candidates) and
// the conflicts push opened. Drops the person's own edits and their echoes,
// anything on the first sync, kinds switched off and anything in quiet hours,
// and groups a burst into summaries. Pure: the clock and time zone come in.
import { inQuietHours, type NotificationSettings, type NotifyKind } from './notification-settings';
import { LONGEST_BODY, LONGEST_NAME, LONGEST_TITLE, notificationText } from './notification-text';

/** A change feed entry (db/'s change feed) or a pull notification, as a candidate. */
export interface ChangeCandidate {
  /** The change feed row, when it is one (marked seen when opened or when it is not news). */
  feedId: number | null;
  kind: Exclude<NotifyKind, 'task-conflict'>;
  taskId: string;
  title: string;
  /** Who made the change (username or user id), null when the service did not say. */
  by: string | null;
  /** `task-status-changed`: `from`, `to`; `task-commented`: `count`; `task-mentioned`: `excerpt`. */
  detail: Readonly<Record<string, unknown>>;
}

/** A queued edit that met a change it cannot merge (push's `conflict` event). */
export interface ConflictCandidate {
  /** The task a click opens (a comment's task); '' for a resource that is not on a task (`resource`). */
  taskId: string;
  title: string;
  /** A resource of another kind than task or comment (a section): a click opens its conflict, never a task. */
  resource?: ConflictResource;
  conflict: 'edited' | 'deleted-remotely';
  fields: readonly string[];
  /** Fields that point at something (a sprint, a goal), each side by name (db/referenced-names). */
  sides?: readonly ConflictSides[];
}

/** One conflicting field's two values in words: "Sprint 12" here, "Sprint 13" on the server. */
export interface ConflictSides {
  field: string;
  mine: string;
  theirs: string;
}

/** A field as the body names it: what an id field points at ("sprint"), others as sent. */
function fieldNoun(field: string): string {
  return field.endsWith('_id') ? field.slice(0, -3).replace(/_/g, ' ') : field;
}

/** A resource of another kind, by kind and id (the conflict view's target). */
export interface ConflictResource {
  entityType: string;
  entityId: string;
}

/** What the OS shows, and what clicking it opens. */
export interface DesktopNotification {
  /** Stable for the same content (the OS may replace a shown one with the same tag). */
  tag: string;
  kind: NotifyKind | 'summary';
  title: string;
  body: string;
  /** Clicking opens this account and task; `taskId` null opens the app on the account. */
  open: { accountId: string; taskId: string | null; conflict?: ConflictResource };
  /** Feed entries it stands for: marked seen when it is clicked. */
  feedIds: number[];
  /** How many changes it stands for. */
  count: number;
}

export type SuppressedReason = 'own-edit' | 'echo' | 'first-sync' | 'disabled' | 'kind-off' | 'quiet-hours';

export interface NotificationDecision {
  show: DesktopNotification[];
  /** Feed entries that are not news (own edits, echoes of our pushes): mark them seen now. */
  markSeen: number[];
  suppressed: { kind: NotifyKind; taskId: string; reason: SuppressedReason }[];
}

export interface DecisionInput {
  accountId: string;
  /** The signed-in person: either name may appear as a change's author. */
  me: { username: string; user_id: string };
  changes: readonly ChangeCandidate[];
  conflicts: readonly ConflictCandidate[];
  /** This poll was the account's first sync: nothing in it is news. */
  firstSync: boolean;
  /** Tasks whose queued edits the server accepted recently, with when (ms). */
  ownPushes: readonly { taskId: string; at: number }[];
  settings: NotificationSettings;
  nowMs: number;
  utcOffsetMinutes: number;
  /** More than this many in one poll are grouped (default 3). */
  groupAbove?: number;
  /** How long after our push an unattributed change to that task counts as its echo (ms, default 2 min). */
  echoWindowMs?: number;
}

const DEFAULT_GROUP_ABOVE = 3;
const DEFAULT_ECHO_WINDOW_MS = 120_000;

const STATUS_WORDS: Readonly<Record<string, string>> = {
  not_started: 'Not started',
  in_progress: 'In progress',
  blocked: 'Blocked',
  completed: 'Done',
};

/** A status as people read it (unknown values as sent). */
export function statusWords(status: unknown): string {
  if (typeof status !== 'string') return 'none';
  return STATUS_WORDS[status] ?? notificationText(status.replace(/_/g, ' '), LONGEST_NAME);
}

/** A title a person typed, in quotes; its text made fit for a notification (notification-text.ts). */
function quoted(title: string): string {
  const text = notificationText(title, LONGEST_NAME);
  return text === '' ? 'a task' : `“${text}”`;
}
const byLine = (by: string | null): string =>
  by === null ? '' : ` by ${notificationText(by, LONGEST_NAME)}`;

function describeChange(candidate: ChangeCandidate): { title: string; body: string } {
  switch (candidate.kind) {
    case 'task-assigned':
      return { title: 'Assigned to you', body: `${quoted(candidate.title)}${byLine(candidate.by)}` };
    case 'task-status-changed':
      return {
        title: `${statusWords(candidate.detail.from)} → ${statusWords(candidate.detail.to)}`,
        body: `${quoted(candidate.title)}${byLine(candidate.by)}`,
      };
    case 'task-commented': {
      const count = typeof candidate.detail.count === 'number' ? candidate.detail.count : 1;
      return {
        title: count === 1 ? 'New comment' : `${count} new comments`,
        body: `On ${quoted(candidate.title)}${byLine(candidate.by)}`,
      };
    }
    case 'task-mentioned':
      return {
        title: `${candidate.by === null ? 'Someone' : notificationText(candidate.by, LONGEST_NAME)} mentioned you`,
        body: `On ${quoted(candidate.title)}`,
      };
  }
}

function describeConflict(conflict: ConflictCandidate): { title: string; body: string } {
  // A section (or another kind not on a task) is named as what it is: "Section ‘Later’".
  const what =
    conflict.resource === undefined
      ? quoted(conflict.title)
      : `${conflict.resource.entityType.charAt(0).toUpperCase()}${conflict.resource.entityType.slice(1)} ${quoted(conflict.title)}`;
  if (conflict.conflict === 'deleted-remotely') {
    return { title: 'Your edit needs you', body: `${what} was deleted on the server while you edited it` };
  }
  const fields = conflict.fields.length > 0 ? conflict.fields.map(fieldNoun).join(', ') : 'fields';
  const sides = (conflict.sides ?? []).map(
    (s) =>
      `${fieldNoun(s.field)} ‘${notificationText(s.mine, LONGEST_NAME)}’ here, ‘${notificationText(s.theirs, LONGEST_NAME)}’ on the server`,
  );
  return {
    title: 'Your edit needs you',
    body: `${what}: ${fields} changed on both sides${sides.length > 0 ? ` (${sides.join('; ')})` : ''}`,
  };
}

const SUMMARY_TITLES: Readonly<Record<NotifyKind, (n: number) => string>> = {
  'task-assigned': (n) => `${n} tasks assigned to you`,
  'task-status-changed': (n) => `Status changed on ${n} of your tasks`,
  'task-commented': (n) => `New comments on ${n} of your tasks`,
  'task-mentioned': (n) => `You were mentioned on ${n} tasks`,
  'task-conflict': (n) => `${n} edits need you`,
};

interface Pending {
  kind: NotifyKind;
  taskId: string;
  title: string;
  text: { title: string; body: string };
  feedIds: number[];
  resource?: ConflictResource;
}

export function decideNotifications(input: DecisionInput): NotificationDecision {
  const decision: NotificationDecision = { show: [], markSeen: [], suppressed: [] };
  const echoWindow = input.echoWindowMs ?? DEFAULT_ECHO_WINDOW_MS;
  const groupAbove = input.groupAbove ?? DEFAULT_GROUP_ABOVE;
  const mine = new Set([input.me.username, input.me.user_id].filter((name) => name !== ''));
  const recentlyPushed = new Set(
    input.ownPushes
      .filter((p) => input.nowMs - p.at <= echoWindow && p.at <= input.nowMs)
      .map((p) => p.taskId),
  );
  const suppress = (kind: NotifyKind, taskId: string, reason: SuppressedReason) =>
    decision.suppressed.push({ kind, taskId, reason });

  // The person's own edits and their echoes are not news on any setting: seen at once.
  const news: ChangeCandidate[] = [];
  for (const change of input.changes) {
    const reason: SuppressedReason | null =
      change.by !== null && mine.has(change.by)
        ? 'own-edit'
        : change.by === null && recentlyPushed.has(change.taskId)
          ? 'echo'
          : null;
    if (reason === null) {
      news.push(change);
      continue;
    }
    suppress(change.kind, change.taskId, reason);
    if (change.feedId !== null) decision.markSeen.push(change.feedId);
  }

  const candidates: Pending[] = [
    ...news.map((c) => ({
      kind: c.kind,
      taskId: c.taskId,
      title: c.title,
      text: describeChange(c),
      feedIds: c.feedId === null ? [] : [c.feedId],
    })),
    ...input.conflicts.map((c) => ({
      kind: 'task-conflict' as const,
      taskId: c.taskId,
      title: c.title,
      text: describeConflict(c),
      feedIds: [],
      ...(c.resource === undefined ? {} : { resource: c.resource }),
    })),
  ];

  // What stays unshown stays unseen: the tray and the app still list it.
  const blocker: SuppressedReason | null = input.firstSync
    ? 'first-sync'
    : !input.settings.enabled
      ? 'disabled'
      : inQuietHours(input.settings.quiet_hours, input.nowMs, input.utcOffsetMinutes)
        ? 'quiet-hours'
        : null;
  const shown: Pending[] = [];
  for (const candidate of candidates) {
    const reason = blocker ?? (input.settings.kinds[candidate.kind] ? null : 'kind-off');
    if (reason === null) shown.push(candidate);
    else suppress(candidate.kind, candidate.taskId, reason);
  }

  // One notification per kind and task: a task assigned twice in one poll is one change to the person.
  const merged = new Map<string, Pending>();
  for (const candidate of shown) {
    const key = `${candidate.kind}\u0000${candidate.resource === undefined ? candidate.taskId : `${candidate.resource.entityType}:${candidate.resource.entityId}`}`;
    const existing = merged.get(key);
    if (existing) {
      existing.feedIds.push(...candidate.feedIds);
      existing.text = candidate.text;
    } else merged.set(key, { ...candidate, feedIds: [...candidate.feedIds] });
  }
  const unique = [...merged.values()];

  if (unique.length <= groupAbove) {
    decision.show = unique.map((p) => single(input.accountId, p));
    return decision;
  }
  // A burst: one summary per kind (a kind with a single change is still shown as itself).
  const byKind = new Map<NotifyKind, Pending[]>();
  for (const p of unique) byKind.set(p.kind, [...(byKind.get(p.kind) ?? []), p]);
  for (const [kind, group] of byKind) {
    const only = group[0];
    if (group.length === 1 && only) {
      decision.show.push(single(input.accountId, only));
      continue;
    }
    const titles = group.slice(0, 3).map((p) => quoted(p.title));
    const more = group.length - titles.length;
    decision.show.push({
      tag: `${input.accountId}:${kind}:summary:${group.map((p) => p.taskId).join(',')}`,
      kind: 'summary',
      title: SUMMARY_TITLES[kind](group.length),
      body: notificationText(`${titles.join(', ')}${more > 0 ? ` and ${more} more` : ''}`, LONGEST_BODY),
      open: { accountId: input.accountId, taskId: null },
      feedIds: group.flatMap((p) => p.feedIds),
      count: group.length,
    });
  }
  return decision;
}

function single(accountId: string, p: Pending): DesktopNotification {
  return {
    tag: `${accountId}:${p.kind}:${p.resource === undefined ? p.taskId : `${p.resource.entityType}:${p.resource.entityId}`}`,
    kind: p.kind,
    title: notificationText(p.text.title, LONGEST_TITLE),
    body: notificationText(p.text.body, LONGEST_BODY),
    open:
      p.resource === undefined
        ? { accountId, taskId: p.taskId }
        : { accountId, taskId: null, conflict: p.resource },
    feedIds: p.feedIds,
    count: 1,
  };
}

/** A change feed entry (as db/'s ChangeFeed lists it) as a candidate; null for kinds we do not notify. */
export function candidateOfFeedEntry(entry: {
  id: number;
  kind: string;
  entityType: string;
  entityId: string;
  summary: Readonly<Record<string, unknown>>;
}): ChangeCandidate | null {
  if (entry.entityType !== 'task') return null;
  if (
    entry.kind !== 'task-assigned' &&
    entry.kind !== 'task-status-changed' &&
    entry.kind !== 'task-commented' &&
    entry.kind !== 'task-mentioned'
  )
    return null;
  const { title, by, ...detail } = entry.summary;
  return {
    feedId: entry.id,
    kind: entry.kind,
    taskId: entry.entityId,
    title: typeof title === 'string' ? title : '',
    by: typeof by === 'string' ? by : null,
    detail,
  };
}

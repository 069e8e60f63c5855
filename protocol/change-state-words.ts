// How a change the server has not accepted yet stands, in words: one label and
// one sentence per outbox state, and one tally of them, which the status bar,
// the pending-changes inspector, row marks, editor field labels, the tray and
// the headless `outbox` all read (issue 21). Kept here, beside the wire schemas,
// because it is the one layer the renderer, main, sync and db may all import;
// like them it imports nothing of ours.

/** The outbox's states of a change not yet accepted (db/task-overlay UNSETTLED_STATES). */
export type ChangeState = 'queued' | 'in_flight' | 'conflict' | 'failed' | 'blocked';

/**
 * A state as the views name it: the outbox's own, the IPC's `sending` (its
 * `in_flight`) or a row mark's `pending` (queued or being sent, told as queued).
 */
export type ChangeStateName = ChangeState | 'sending' | 'pending';

export interface ChangeStateWords {
  /** A few words for a chip or a field label: "Not sent yet", "Conflict". */
  readonly label: string;
  /** What it means and what happens next, for a tooltip or a line of text. */
  readonly sentence: string;
}

/** A state's words; `kinds` is the plural noun of what the change is to ("tasks", "goals"). */
export function changeStateWords(state: ChangeStateName, kinds = 'tasks'): ChangeStateWords {
  switch (state) {
    case 'queued':
    case 'pending':
      return { label: 'Not sent yet', sentence: 'Saved here; sent when the server can be reached.' };
    case 'in_flight':
    case 'sending':
      return { label: 'Sending', sentence: 'Being sent to the server now.' };
    case 'conflict':
      return {
        label: 'Conflict',
        sentence: 'Changed here and on the server; needs your choice in pending changes.',
      };
    case 'failed':
      return {
        label: 'Not saved',
        sentence: 'The server refused this change; edit it and retry, or discard it, in pending changes.',
      };
    case 'blocked':
      return {
        label: 'Read-only',
        sentence: `This account cannot change ${kinds}; the change was not sent.`,
      };
  }
}

/** The states of a change that waits for the person, not for the network. */
export type StoppedChangeState = 'conflict' | 'failed' | 'blocked';

/** A stopped change another one is held behind (db/outbox/outbox-waits), as its words need it. */
export interface HeldBehind {
  /** The kind of resource it is to: 'sprint', 'task', … */
  readonly entityType: string;
  /** The resource's name or title; null when unknown. */
  readonly name: string | null;
  readonly kind: 'create' | 'update' | 'delete';
  readonly state: StoppedChangeState;
}

/**
 * The words of a change held behind another that stopped (a task filed into a
 * sprint whose create is read-only): it is not sent "when the server can be
 * reached" but once the person settles that one, so it says which and how it stands.
 */
export function waitingWords(on: HeldBehind): ChangeStateWords {
  const what =
    on.name !== null
      ? `${on.entityType} ‘${on.name}’`
      : `${on.kind === 'create' ? 'a new' : 'a'} ${on.entityType}`;
  const stopped = changeStateWords(on.state, `${on.entityType}s`);
  const how = on.state === 'conflict' ? 'in conflict' : stopped.label.toLowerCase();
  const [label, once] =
    on.kind === 'create'
      ? [`Waiting for ${what}`, `${what} is created`]
      : on.kind === 'update'
        ? [`Waiting for a change to ${what}`, `the earlier change to ${what} is sent`]
        : [`Waiting for the delete of ${what}`, `the delete of ${what} is sent`];
  return { label, sentence: `Sent once ${once}; that change is ${how}: ${stopped.sentence}` };
}

/** How many changes wait, by what they wait for; every view's totals are this tally. */
export interface ChangeCounts {
  /** Not sent yet: queued, or being sent. */
  readonly pending: number;
  /** Waiting for the person's choice. */
  readonly conflicts: number;
  /** Refused by the server. */
  readonly failed: number;
  /** Not sent: the account may not make them (read-only). */
  readonly blocked: number;
  /** Every change the server has not accepted yet: the sum of the four. */
  readonly unsettled: number;
}

export type ChangeCountGroup = Exclude<keyof ChangeCounts, 'unsettled'>;

/** The group of the tally a state is counted in. */
export function countGroupOf(state: ChangeStateName): ChangeCountGroup {
  switch (state) {
    case 'queued':
    case 'pending':
    case 'in_flight':
    case 'sending':
      return 'pending';
    case 'conflict':
      return 'conflicts';
    case 'failed':
      return 'failed';
    case 'blocked':
      return 'blocked';
  }
}

/** Tallies states, `n` changes of each (one each when a bare list of states is given). */
export function countChanges(
  states: Iterable<ChangeStateName | { readonly state: ChangeStateName; readonly n: number }>,
): ChangeCounts {
  const counts = { pending: 0, conflicts: 0, failed: 0, blocked: 0, unsettled: 0 };
  for (const entry of states) {
    const { state, n } = typeof entry === 'string' ? { state: entry, n: 1 } : entry;
    counts[countGroupOf(state)] += n;
    counts.unsettled += n;
  }
  return counts;
}

/** The state whose words name each group of the tally. */
const GROUP_STATE: Readonly<Record<ChangeCountGroup, ChangeState>> = {
  pending: 'queued',
  conflicts: 'conflict',
  failed: 'failed',
  blocked: 'blocked',
};

const GROUPS: readonly ChangeCountGroup[] = ['conflicts', 'failed', 'blocked', 'pending'];

function counted(count: number, one: string, many: string): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}

export interface ChangeCountPart {
  readonly group: ChangeCountGroup;
  /** The state whose words name the group (a queued change's for those not sent yet). */
  readonly state: ChangeState;
  readonly count: number;
  /** "2 conflicts", "1 not saved", "3 read-only", "1 not sent yet". */
  readonly text: string;
}

export interface ChangeCountWords {
  /** "All changes synced", or every change waiting counted: "4 changes waiting". */
  readonly headline: string;
  /** Each group with any change, those needing the person first; their counts add up to the headline's. */
  readonly parts: readonly ChangeCountPart[];
}

/** The tally in words, as the status bar, the inspector and the tray say it. */
export function changeCountWords(counts: ChangeCounts): ChangeCountWords {
  const headline =
    counts.unsettled === 0
      ? 'All changes synced'
      : `${counted(counts.unsettled, 'change', 'changes')} waiting`;
  const parts = GROUPS.filter((group) => counts[group] > 0).map((group) => {
    const count = counts[group];
    const state = GROUP_STATE[group];
    const label = changeStateWords(state).label;
    // "Conflict" is a noun, counted in the plural; the others say how the changes stand.
    const text =
      group === 'conflicts'
        ? counted(count, 'conflict', 'conflicts')
        : counted(count, label, label).toLowerCase();
    return { group, state, count, text };
  });
  return { headline, parts };
}

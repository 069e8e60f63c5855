// When the app looks for an update, what it tells the person about one, and
// when it may restart to install it. Pure decisions over plain values; the
// controller (update-controller.ts) applies them, main's shell feeds it.

/** Checked at start and then this often (electron-updater downloads in the background). */
export const CHECK_INTERVAL_MS = 4 * 60 * 60 * 1000;
/** After a failed check or download, the next attempt waits this long. */
export const RETRY_AFTER_FAILURE_MS = 30 * 60 * 1000;
/**
 * How long "Restart to update" waits for queued edits to reach the server
 * while online. Past it (or offline) they stay queued in the mirror, which the
 * next version opens and migrates with them (update-survival.test.ts).
 */
export const SETTLE_WAIT_MS = 2 * 60 * 1000;

/** What the OS tells about the network; nothing is checked or downloaded while absent or metered. */
export interface UpdateNetwork {
  readonly online: boolean;
  readonly metered: boolean;
}

export type UpdateFailureReason =
  'unreachable' | 'malformed-feed' | 'unsigned-feed' | 'checksum-mismatch' | 'feed-refused' | 'failed';

export type UpdatePhase =
  | { readonly kind: 'idle' }
  | { readonly kind: 'checking' }
  | { readonly kind: 'up-to-date' }
  | { readonly kind: 'downloading'; readonly version: string; readonly percent: number }
  | { readonly kind: 'ready'; readonly version: string }
  /** Restart asked for; waiting for edits being sent. */
  | { readonly kind: 'waiting'; readonly version: string; readonly pending: number; readonly since: number }
  | {
      readonly kind: 'failed';
      readonly reason: UpdateFailureReason;
      readonly message: string;
      /** Epoch ms of the next attempt. */
      readonly retryAt: number;
    };

export interface CheckDueInput {
  readonly now: number;
  /** Epoch ms of the last check started; null before the first (the app just started). */
  readonly lastCheckAt: number | null;
  readonly phase: UpdatePhase;
  readonly network: UpdateNetwork;
}

/** Whether to ask the feed now. */
export function checkDue({ now, lastCheckAt, phase, network }: CheckDueInput): boolean {
  // A check is running, a download too, or one is downloaded: nothing to ask the feed.
  if (phase.kind === 'checking' || phase.kind === 'downloading') return false;
  if (phase.kind === 'ready' || phase.kind === 'waiting') return false;
  if (!network.online || network.metered) return false;
  if (phase.kind === 'failed') return now >= phase.retryAt;
  return lastCheckAt === null || now - lastCheckAt >= CHECK_INTERVAL_MS;
}

/** Pending edits as the outbox tally counts them, summed over every account. */
export interface OutboxPending {
  /** Queued or being sent. */
  readonly pending: number;
  /** Being sent right now (a push holds them). */
  readonly inFlight: number;
}

export type InstallDecision =
  { readonly kind: 'install' } | { readonly kind: 'wait'; readonly pending: number };

/**
 * Whether a restart to update may happen now. A push in progress is never
 * interrupted; queued edits get {@link SETTLE_WAIT_MS} to reach the server
 * while online. After that, or offline, they are kept: they live in the
 * mirror, which survives the install and its migrations.
 */
export function installDecision(input: {
  readonly outbox: OutboxPending;
  readonly online: boolean;
  /** How long this restart has waited already. */
  readonly waitedMs: number;
}): InstallDecision {
  const { outbox, online, waitedMs } = input;
  if (outbox.inFlight > 0) return { kind: 'wait', pending: outbox.pending };
  if (outbox.pending > 0 && online && waitedMs < SETTLE_WAIT_MS)
    return { kind: 'wait', pending: outbox.pending };
  return { kind: 'install' };
}

/** What the status bar and the tray show of updates (the IPC contract's `updateStatusSchema` carries it). */
export interface UpdateStatus {
  readonly state: 'idle' | 'checking' | 'downloading' | 'ready' | 'waiting' | 'failed';
  readonly version: string | null;
  /** 0-100 while downloading. */
  readonly percent: number | null;
  /** The line to show; null when there is nothing to tell (no update, or still looking). */
  readonly message: string | null;
  readonly reason: UpdateFailureReason | null;
  /** ISO 8601: when a failed check is tried again. */
  readonly retry_at: string | null;
  /** Whether "Restart to update" is offered. */
  readonly can_restart: boolean;
}

const changes = (n: number) => `${n} ${n === 1 ? 'change' : 'changes'}`;

const FAILURE_WORDS: Readonly<Record<UpdateFailureReason, string>> = {
  unreachable: 'Could not get the update from its server',
  'malformed-feed': 'The update feed could not be read',
  'unsigned-feed': "The update feed is not signed by the app's publisher, nothing was downloaded",
  'checksum-mismatch': 'The downloaded update did not match its checksum and was deleted',
  'feed-refused': 'Updates are off, the update feed setting was refused',
  failed: 'Updating failed',
};

export function updateStatusView(phase: UpdatePhase): UpdateStatus {
  const quiet = {
    version: null,
    percent: null,
    message: null,
    reason: null,
    retry_at: null,
    can_restart: false,
  };
  switch (phase.kind) {
    case 'idle':
    case 'up-to-date':
      return { state: 'idle', ...quiet };
    case 'checking':
      return { state: 'checking', ...quiet };
    case 'downloading': {
      const percent = Math.max(0, Math.min(100, Math.round(phase.percent)));
      return {
        ...quiet,
        state: 'downloading',
        version: phase.version,
        percent,
        message: `Downloading update ${phase.version} (${percent}%)`,
      };
    }
    case 'ready':
      return {
        ...quiet,
        state: 'ready',
        version: phase.version,
        message: `Restart to update to ${phase.version}`,
        can_restart: true,
      };
    case 'waiting':
      return {
        ...quiet,
        state: 'waiting',
        version: phase.version,
        message: `Sending ${changes(phase.pending)}, then restarting to update to ${phase.version}`,
      };
    case 'failed':
      return {
        ...quiet,
        state: 'failed',
        reason: phase.reason,
        retry_at: Number.isFinite(phase.retryAt) ? new Date(phase.retryAt).toISOString() : null,
        // A refused feed setting is not retried: it waits for the setting to be fixed.
        message: `${FAILURE_WORDS[phase.reason]}: ${phase.message}${phase.reason === 'feed-refused' ? '' : '. Trying again later.'}`,
      };
  }
}

// Runs the update policy: checks the feed at start and every few hours when the
// network allows, follows the background download, and restarts to install
// only when update-policy.ts says the outbox allows it. The updater itself
// (electron-updater in the app, the same in Node tests) comes in as a port.
import { classifyUpdateError } from './update-errors';
import {
  checkDue,
  installDecision,
  type OutboxPending,
  RETRY_AFTER_FAILURE_MS,
  type UpdateNetwork,
  type UpdatePhase,
  type UpdateStatus,
  updateStatusView,
} from './update-policy';

/** What the controller asks of the updater (electron-updater-port.ts adapts electron-updater's). */
export interface UpdaterPort {
  /**
   * Asks the feed. Resolves with the newer version offered (its download then
   * runs in the background and reports through the controller's
   * `downloadProgress`, `downloaded` and `failed`), or null when there is none.
   */
  check(): Promise<{ readonly version: string } | null>;
  /** Installs the downloaded update and restarts the app. */
  install(): Promise<void>;
}

export interface UpdateControllerOptions {
  readonly updater: UpdaterPort;
  readonly network: () => UpdateNetwork;
  /** Every account's edits not yet sent. */
  readonly outbox: () => OutboxPending;
  /** Asks every account to push now: a restart waits for what is queued. */
  readonly syncNow: () => void;
  readonly onChange: (status: UpdateStatus) => void;
  readonly now?: () => number;
  /** How often the controller looks whether a check is due (default 5 minutes). */
  readonly tickMs?: number;
  /** How often a waiting restart looks at the outbox again (default 1 s). */
  readonly settlePollMs?: number;
}

export class UpdateController {
  readonly #options: UpdateControllerOptions;
  readonly #now: () => number;
  #phase: UpdatePhase = { kind: 'idle' };
  #lastCheckAt: number | null = null;
  /** Counts checks: the answer of one that a later check replaced is not reported. */
  #checks = 0;
  #ticker: ReturnType<typeof setInterval> | null = null;
  #settleTimer: ReturnType<typeof setTimeout> | null = null;
  #stopped = false;

  constructor(options: UpdateControllerOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /** Checks now if the network allows, then looks again every few minutes. */
  start(): void {
    this.#ticker ??= setInterval(() => this.tick(), this.#options.tickMs ?? 5 * 60_000);
    this.tick();
  }

  stop(): void {
    this.#stopped = true;
    if (this.#ticker !== null) clearInterval(this.#ticker);
    if (this.#settleTimer !== null) clearTimeout(this.#settleTimer);
    this.#ticker = null;
    this.#settleTimer = null;
  }

  status(): UpdateStatus {
    return updateStatusView(this.#phase);
  }

  phase(): UpdatePhase {
    return this.#phase;
  }

  /** Checks when one is due; the shell also calls it when the network comes back. */
  tick(): void {
    if (this.#stopped) return;
    const due = checkDue({
      now: this.#now(),
      lastCheckAt: this.#lastCheckAt,
      phase: this.#phase,
      network: this.#options.network(),
    });
    if (due) void this.#check();
  }

  async #check(): Promise<void> {
    const check = ++this.#checks;
    this.#lastCheckAt = this.#now();
    this.#set({ kind: 'checking' });
    let offered: { readonly version: string } | null;
    try {
      offered = await this.#options.updater.check();
    } catch (error) {
      // electron-updater reports it twice, as an 'error' event and as this rejection: the first one
      // counts. The event may already have let a retry start: this rejection is not the retry's.
      if (check === this.#checks && this.#phase.kind === 'checking') this.failed(error);
      return;
    }
    // A download may already have reported (electron-updater emits before check resolves).
    if (check !== this.#checks || this.#phase.kind !== 'checking') return;
    this.#set(
      offered === null
        ? { kind: 'up-to-date' }
        : { kind: 'downloading', version: offered.version, percent: 0 },
    );
  }

  downloadProgress(version: string, percent: number): void {
    if (this.#phase.kind === 'checking' || this.#phase.kind === 'downloading') {
      this.#set({ kind: 'downloading', version, percent });
    }
  }

  downloaded(version: string): void {
    if (this.#phase.kind === 'waiting') return;
    this.#set({ kind: 'ready', version });
  }

  /** A failed check or download: the reason is shown, and the next tick past the retry time tries again. */
  failed(error: unknown): void {
    // A download already verified and kept stays installable; a later hiccup does not undo it.
    if (this.#phase.kind === 'ready' || this.#phase.kind === 'waiting') return;
    const failure = classifyUpdateError(error);
    this.#set({ kind: 'failed', ...failure, retryAt: this.#now() + RETRY_AFTER_FAILURE_MS });
  }

  /** The feed setting was refused: nothing is checked, and the person is told why. */
  turnOff(message: string): void {
    this.#set({ kind: 'failed', reason: 'feed-refused', message, retryAt: Number.POSITIVE_INFINITY });
  }

  /** "Restart to update": installs once the outbox allows it (see installDecision). */
  restartToUpdate(): UpdateStatus {
    const phase = this.#phase;
    if (phase.kind !== 'ready') return this.status();
    this.#options.syncNow();
    this.#set({ kind: 'waiting', version: phase.version, pending: 0, since: this.#now() });
    this.#settle();
    return this.status();
  }

  #settle(): void {
    this.#settleTimer = null;
    const phase = this.#phase;
    if (this.#stopped || phase.kind !== 'waiting') return;
    const decision = installDecision({
      outbox: this.#options.outbox(),
      online: this.#options.network().online,
      waitedMs: this.#now() - phase.since,
    });
    if (decision.kind === 'wait') {
      if (decision.pending !== phase.pending) this.#set({ ...phase, pending: decision.pending });
      this.#settleTimer = setTimeout(() => this.#settle(), this.#options.settlePollMs ?? 1000);
      return;
    }
    this.#options.updater.install().catch((error: unknown) => {
      const failure = classifyUpdateError(error);
      this.#set({ kind: 'failed', ...failure, retryAt: this.#now() + RETRY_AFTER_FAILURE_MS });
    });
  }

  #set(phase: UpdatePhase): void {
    this.#phase = phase;
    this.#options.onChange(updateStatusView(phase));
  }
}

// The secrets this run has held, for the sync logs and diagnostics to redact by
// value whatever their shape: access, refresh and pasted tokens of every
// account, current and previous (a request logged after a rotation still
// carries the token it was sent with). Memory only; never written anywhere.

/** Enough for days of hourly rotations across several accounts; the oldest go first. */
const DEFAULT_LIMIT = 512;

export class KnownSecrets {
  readonly #values = new Set<string>();
  readonly #limit: number;
  #list: readonly string[] | null = null;

  constructor(limit = DEFAULT_LIMIT) {
    this.#limit = limit;
  }

  /** Remembers a secret (trimmed; values too short to be a secret are ignored, as redaction would ignore them). */
  note(value: string | null | undefined): void {
    const secret = value?.trim();
    if (secret === undefined || secret.length < 8) return;
    if (this.#values.has(secret)) {
      // Newest last, so the limit drops the oldest.
      this.#values.delete(secret);
    }
    this.#values.add(secret);
    for (const oldest of this.#values) {
      if (this.#values.size <= this.#limit) break;
      this.#values.delete(oldest);
    }
    this.#list = null;
  }

  /** Every secret remembered, live: call it when redacting, not once. */
  list(): readonly string[] {
    this.#list ??= [...this.#values];
    return this.#list;
  }
}

// Links the OS hands the app before it can act on them (macOS sends
// `open-url` before the app is ready; Windows and Linux put the first link in
// the launch arguments): kept in order until main's services take them.

export class LinkInbox {
  readonly #queued: string[] = [];
  #deliver: ((raw: string) => void) | null = null;

  /** A link from the OS: delivered at once when a receiver is set, else kept. */
  receive(raw: string | null | undefined): void {
    if (typeof raw !== 'string' || raw === '') return;
    if (this.#deliver) this.#deliver(raw);
    else this.#queued.push(raw);
  }

  /** Sets the receiver: the links kept so far first, in the order they came. */
  deliverTo(deliver: (raw: string) => void): void {
    this.#deliver = deliver;
    for (const raw of this.#queued.splice(0)) deliver(raw);
  }
}

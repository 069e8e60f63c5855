// One call in flight at a time, and only the newest waiting: while the person
// types faster than main answers, each keystroke's query would otherwise
// queue in main behind every older one (its handler runs them in order, to
// the end); here an older query not yet sent is dropped, never asked.

/** What a call dropped for a newer one resolves with. */
export const SUPERSEDED = Symbol('superseded');

interface Waiting {
  ask: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class LatestOnly {
  private running = false;
  private waiting: Waiting | null = null;

  /**
   * Runs `ask` now when nothing is in flight, else once the call in flight
   * ended, unless a newer call came meanwhile: then it resolves SUPERSEDED
   * without running.
   */
  run<T>(ask: () => Promise<T>): Promise<T | typeof SUPERSEDED> {
    return new Promise<T | typeof SUPERSEDED>((resolve, reject) => {
      const call: Waiting = {
        ask,
        resolve: resolve as (value: unknown) => void,
        reject,
      };
      if (!this.running) {
        this.start(call);
        return;
      }
      this.waiting?.resolve(SUPERSEDED);
      this.waiting = call;
    });
  }

  private start(call: Waiting): void {
    this.running = true;
    let asked: Promise<unknown>;
    try {
      asked = call.ask();
    } catch (error) {
      call.reject(error);
      this.next();
      return;
    }
    asked.then(call.resolve, call.reject).finally(() => this.next());
  }

  private next(): void {
    this.running = false;
    const next = this.waiting;
    this.waiting = null;
    if (next !== null) this.start(next);
  }
}

// Lets a list walk alone: the walks of one pull share the rate budget, but a
// list whose cursors the service refused is walked again with no other walk
// sending at the same time, so its fresh chain is followed as fast as the
// service allows (a cursor that expires with time then has its best chance).

export class SoloGate {
  private sharedActive = 0;
  private soloHeld = false;
  private soloWaiting = 0;
  private waiters: (() => void)[] = [];

  /** One request of an ordinary walk: waits while a list walks alone (or waits to). */
  async shared<T>(task: () => Promise<T>): Promise<T> {
    while (this.soloHeld || this.soloWaiting > 0) await this.changed();
    this.sharedActive += 1;
    try {
      return await task();
    } finally {
      this.sharedActive -= 1;
      this.notify();
    }
  }

  /** A whole walk with no other request of the run in flight; solo walks take turns. */
  async alone<T>(task: () => Promise<T>): Promise<T> {
    this.soloWaiting += 1;
    try {
      while (this.soloHeld || this.sharedActive > 0) await this.changed();
    } finally {
      this.soloWaiting -= 1;
    }
    this.soloHeld = true;
    try {
      return await task();
    } finally {
      this.soloHeld = false;
      this.notify();
    }
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}

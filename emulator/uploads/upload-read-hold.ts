// A test's hold on the reading of upload bodies: once an upload's body has
// come past a mark, the emulator stops reading it until the test lets go. The
// client then meets a server that reads slowly (its writes wait on the
// connection), so a test sees an upload part-way without timing anything.
import type { Readable } from 'node:stream';

export class UploadReadHold {
  private afterBytes: number | null = null;
  private readonly held = new Set<Readable>();

  /** Upload bodies stop being read once `afterBytes` of them have come; null reads every one whole again. */
  set(afterBytes: number | null): void {
    this.afterBytes = afterBytes;
    if (afterBytes !== null) return;
    for (const body of this.held) body.resume();
    this.held.clear();
  }

  /** Bodies stopped now. */
  get holding(): number {
    return this.held.size;
  }

  /** Called as a body is read, with the bytes read so far: stops reading it at the mark. */
  reading(body: Readable, bytesRead: number): void {
    if (this.afterBytes === null || bytesRead < this.afterBytes || this.held.has(body)) return;
    body.pause();
    this.held.add(body);
    body.once('close', () => this.held.delete(body));
  }
}

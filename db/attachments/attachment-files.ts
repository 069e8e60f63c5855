// The attachments' bytes the app keeps, in a folder of the person's own (0700)
// beside the mirror: a file added here (copied at once, so the original may
// move or change before it is sent) and a file downloaded, each named by its
// SHA-256, so one content is kept once and an upload waiting in the outbox
// finds its bytes by the hash its operation carries. A download in progress
// is `<sha256>.part` until its bytes hash right. Use is recorded in each
// file's modification time, which orders the least recently used for eviction.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { OWNER_FILE_MODE, ensureOwnerOnlyDirectory } from '../files/owner-only-files';

/** A hex SHA-256, the only names this folder holds (besides `.part` and temporary files). */
const SHA256 = /^[0-9a-f]{64}$/;

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** What the cache holds: its files and their bytes, `.part` files included. */
export interface CacheUse {
  files: number;
  bytes: number;
}

export class AttachmentFiles {
  constructor(readonly dir: string) {}

  /** The folder beside a mirror file (`accounts/x.db` keeps `accounts/x.db.attachments/`). */
  static beside(mirrorFile: string): AttachmentFiles {
    return new AttachmentFiles(`${mirrorFile}.attachments`);
  }

  /** Makes the folder (0700) when it is not there. */
  ensureFolder(): void {
    ensureOwnerOnlyDirectory(this.dir);
  }

  /** Where the content with this hash is kept (whether or not it is there). */
  pathOf(sha256: string): string {
    if (!SHA256.test(sha256)) throw new Error(`not a hex SHA-256: ${JSON.stringify(sha256)}`);
    return join(this.dir, sha256);
  }

  /** Where a download of it in progress is kept. */
  partPathOf(sha256: string): string {
    return `${this.pathOf(sha256)}.part`;
  }

  has(sha256: string): boolean {
    try {
      return statSync(this.pathOf(sha256)).isFile();
    } catch {
      return false;
    }
  }

  /** The kept bytes when they are there and still hash to their name (a damaged copy is removed); else null. */
  read(sha256: string): Buffer | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(this.pathOf(sha256));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    if (sha256Hex(bytes) !== sha256) {
      rmSync(this.pathOf(sha256), { force: true });
      return null;
    }
    this.touch(sha256);
    return bytes;
  }

  /**
   * Keeps a copy of `bytes` under their hash: written to a temporary file and
   * renamed into place, so a crash leaves either no copy or a whole one.
   */
  keep(bytes: Uint8Array): { sha256: string; size: number } {
    const sha256 = sha256Hex(bytes);
    this.ensureFolder();
    if (!this.has(sha256)) {
      const temporary = join(this.dir, `.${sha256}.${randomBytes(6).toString('hex')}.tmp`);
      writeFileSync(temporary, bytes, { mode: OWNER_FILE_MODE, flush: true });
      renameSync(temporary, this.pathOf(sha256));
    } else this.touch(sha256);
    return { sha256, size: bytes.byteLength };
  }

  /** Moves a finished download into place (its bytes already checked against `sha256`). */
  adoptPart(sha256: string): void {
    renameSync(this.partPathOf(sha256), this.pathOf(sha256));
  }

  /** Records a use: it is then the most recently used. */
  touch(sha256: string): void {
    const now = new Date();
    try {
      utimesSync(this.pathOf(sha256), now, now);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  use(): CacheUse {
    return this.entries().reduce((sum, e) => ({ files: sum.files + 1, bytes: sum.bytes + e.size }), {
      files: 0,
      bytes: 0,
    });
  }

  /**
   * Removes the least recently used files until the folder holds at most
   * `limitBytes`, never one named in `keep` (an upload still waiting, the
   * content of a task a person is likely to open). Returns the hashes removed.
   */
  evict(limitBytes: number, keep: ReadonlySet<string>): string[] {
    const entries = this.entries();
    let total = entries.reduce((sum, e) => sum + e.size, 0);
    const removed: string[] = [];
    for (const entry of entries.sort((a, b) => a.usedAt - b.usedAt)) {
      if (total <= limitBytes) break;
      if (keep.has(entry.sha256)) continue;
      rmSync(join(this.dir, entry.name), { force: true });
      // Its copy under its own name, made to open it (sync/attachments/attachment-open.ts), goes with it.
      rmSync(join(this.dir, 'open', entry.sha256), { recursive: true, force: true });
      total -= entry.size;
      removed.push(entry.sha256);
    }
    return removed;
  }

  private entries(): { name: string; sha256: string; size: number; usedAt: number }[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const out: { name: string; sha256: string; size: number; usedAt: number }[] = [];
    for (const name of names) {
      const sha256 = name.replace(/\.part$/, '');
      if (!SHA256.test(sha256)) continue;
      try {
        const stat = statSync(join(this.dir, name));
        out.push({ name, sha256, size: stat.size, usedAt: stat.mtimeMs });
      } catch {
        // Removed meanwhile (another process evicting): nothing to count.
      }
    }
    return out;
  }
}

// Where refresh tokens are kept between runs. The sign-in code only sees this
// interface: main/ provides an Electron safeStorage one, the headless command
// a file, tests and keychain-less sessions the in-memory one.
import { z } from 'zod';
import { readJsonFile, writeJsonFile } from '../../db/files/json-file';
import { SecretStoreError } from './auth-errors';

export interface SecretStore {
  /** The value under `key`, or undefined when none is stored. */
  get(key: string): Promise<string | undefined>;
  /** Resolves only once the value is durably stored (a later `get`, even after a crash, returns it). */
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

/** Key under which an account's refresh token is stored. */
export function refreshTokenKey(accountId: string): string {
  return `refresh-token:${accountId}`;
}

/** Secrets for this process only: for tests, and for a session where the OS offers no real keychain. */
export class MemorySecretStore implements SecretStore {
  private readonly values = new Map<string, string>();

  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  set(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}

/** The secrets file kept beside an account's database by the headless command. */
export function secretFileBesideDatabase(databasePath: string): string {
  return `${databasePath}.secrets.json`;
}

/**
 * Secrets in a JSON file readable only by its owner (mode 0600), for the
 * headless command where no keychain is reachable from Node.
 *
 * NOT ENCRYPTED: anyone who can read the file as this user (or as root) has the
 * refresh token. Its protection is the file mode alone (which Windows ignores).
 *
 * Each write goes to a fresh 0600 temporary file that is flushed to disk and
 * then renamed over the old one, so a crash leaves either the old or the new
 * contents, never a torn file. Writes from this object are serialized; two
 * processes sharing one file are not coordinated.
 */
export class FileSecretStore implements SecretStore {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly filePath: string) {}

  get(key: string): Promise<string | undefined> {
    return this.serialized('get', async () => (await this.readAll())[key]);
  }

  set(key: string, value: string): Promise<void> {
    return this.serialized('set', async () => {
      const all = await this.readAll();
      all[key] = value;
      await this.writeAll(all);
    });
  }

  delete(key: string): Promise<void> {
    return this.serialized('delete', async () => {
      const all = await this.readAll();
      if (!(key in all)) return;
      delete all[key];
      await this.writeAll(all);
    });
  }

  private serialized<T>(operation: 'get' | 'set' | 'delete', work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work).catch((error: unknown) => {
      throw error instanceof SecretStoreError ? error : new SecretStoreError(operation, errorCode(error));
    });
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async readAll(): Promise<Record<string, string>> {
    const read = await readJsonFile(this.filePath, secretsFileSchema);
    if (read.state === 'missing') return {};
    // The caller's operation (get, set, delete) names the failure: serialized() maps the code.
    if (read.state === 'unreadable')
      throw Object.assign(new Error(read.reason), { code: read.code ?? 'EBADFORMAT' });
    const all: Record<string, string> = {};
    for (const [key, value] of Object.entries(read.value)) if (typeof value === 'string') all[key] = value;
    return all;
  }

  private async writeAll(all: Record<string, string>): Promise<void> {
    await writeJsonFile(this.filePath, all, { mode: 0o600, pretty: false });
  }
}

/** The file holds one JSON object; a value that is not a string is passed over, never the file. */
const secretsFileSchema = z.record(z.string(), z.unknown());

function errorCode(error: unknown): string | null {
  if (error instanceof SyntaxError) return 'EBADFORMAT';
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') {
    return error.code;
  }
  return null;
}

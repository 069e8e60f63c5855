// Where the accounts' secrets go, and whether they may outlive this run: with a
// real OS keychain they are stored encrypted; without one (Linux `basic_text`)
// they stay in memory for the session unless the person chose to keep them.
import { MemorySecretStore, type SecretStore, refreshTokenKey } from '../auth/secret-store';
import type { KnownSecrets } from './known-secrets';

/** A SecretStore that says whether it really encrypts what it keeps between runs. */
export interface AccountSecretStore extends SecretStore {
  /**
   * True when what `set` stores survives a restart encrypted by the OS keychain
   * (macOS Keychain, Windows DPAPI, libsecret/KWallet). False for Linux
   * `basic_text`, for a plain file, and whenever encryption is unavailable.
   */
  isPersistentEncryptionAvailable(): boolean;
}

/** Labels a store (the 0600 file, the in-memory one) with what it offers; for Node hosts and tests. */
export function withEncryptionReport(store: SecretStore, encrypted: boolean): AccountSecretStore {
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key),
    isPersistentEncryptionAvailable: () => encrypted,
  };
}

/**
 * - `encrypted`: kept between runs, encrypted by the OS keychain.
 * - `session-only`: no real keychain and the person has not opted in: kept in memory,
 *   so every account is signed out at the next start.
 * - `unencrypted-by-choice`: no real keychain, and the person chose to stay signed in anyway.
 */
export type SecretPersistence = 'encrypted' | 'session-only' | 'unencrypted-by-choice';

export function decideSecretPersistence(
  encryptionAvailable: boolean,
  keepWithoutKeychain: boolean,
): SecretPersistence {
  if (encryptionAvailable) return 'encrypted';
  return keepWithoutKeychain ? 'unencrypted-by-choice' : 'session-only';
}

/** Key under which a pasted access token is kept (refresh tokens: refreshTokenKey). */
export function accessTokenKey(accountId: string): string {
  return `access-token:${accountId}`;
}

/** Every key an account may have a secret under. */
export function secretKeysOf(accountId: string): string[] {
  return [refreshTokenKey(accountId), accessTokenKey(accountId)];
}

/**
 * The store the accounts use: routes to the injected persistent store or to
 * memory according to the current SecretPersistence, and moves the secrets
 * across when the person changes their mind.
 */
export class AccountSecrets implements SecretStore {
  readonly #persistent: AccountSecretStore;
  readonly #session = new MemorySecretStore();
  #keepWithoutKeychain: boolean;
  readonly #known: KnownSecrets | undefined;

  /** `known` learns every secret read or written here (refresh and pasted tokens), for redaction. */
  constructor(persistent: AccountSecretStore, keepWithoutKeychain: boolean, known?: KnownSecrets) {
    this.#persistent = persistent;
    this.#keepWithoutKeychain = keepWithoutKeychain;
    this.#known = known;
  }

  get persistence(): SecretPersistence {
    return decideSecretPersistence(
      this.#persistent.isPersistentEncryptionAvailable(),
      this.#keepWithoutKeychain,
    );
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.#target().get(key);
    this.#known?.note(value);
    return value;
  }
  set(key: string, value: string): Promise<void> {
    this.#known?.note(value);
    return this.#target().set(key, value);
  }
  delete(key: string): Promise<void> {
    // Both: a secret may have been written before the person changed the setting.
    return Promise.all([this.#session.delete(key), this.#persistent.delete(key)]).then(() => undefined);
  }

  /**
   * The person's choice for a system without a real keychain. Moves the given
   * keys' secrets to where they now belong (to the file when opting in, out of
   * it into memory when opting out); no effect on where they go with a keychain.
   */
  async setKeepWithoutKeychain(keep: boolean, keys: readonly string[]): Promise<void> {
    const before = this.persistence;
    this.#keepWithoutKeychain = keep;
    const after = this.persistence;
    if (before === after) return;
    const [from, to] =
      after === 'session-only' ? [this.#persistent, this.#session] : [this.#session, this.#persistent];
    for (const key of keys) {
      const value = await from.get(key);
      if (value === undefined) continue;
      await to.set(key, value);
      await from.delete(key);
    }
  }

  #target(): SecretStore {
    return this.persistence === 'session-only' ? this.#session : this.#persistent;
  }
}

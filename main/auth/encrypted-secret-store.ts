// The electron-free part of the app's secret store: each secret encrypted with
// an injected string encryption (Electron's safeStorage in the app, a fake in
// tests) before it reaches a file, and the decision whether that encryption is
// a real keychain or Linux `basic_text` (a fixed, public key: obfuscation only).
import { SecretStoreError } from '../../sync/auth/auth-errors';
import type { SecretStore } from '../../sync/auth/secret-store';
import type { AccountSecretStore } from '../../sync/accounts/account-secrets';

/** The slice of Electron's `safeStorage` used here. */
export interface StringEncryption {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
  /** Linux only in Electron: `basic_text`, `gnome_libsecret`, `kwallet`, `kwallet5`, `kwallet6` or `unknown`. */
  getSelectedStorageBackend?(): string;
  /** Linux only in Electron: without it, recent versions report `basic_text` as not available at all. */
  setUsePlainTextEncryption?(usePlainText: boolean): void;
}

/** Version prefix of a stored value, so the format can change without misreading old files. */
const FORMAT = 'v1:';

/**
 * Whether `encryption` is backed by a real keychain. On Linux the selected
 * backend decides: `basic_text` encrypts with a hard-coded password, and
 * `unknown` (asked before the app is ready, or no backend found) is not trusted.
 * Elsewhere availability is enough (Keychain on macOS, DPAPI on Windows).
 */
export function isRealKeychain(encryption: StringEncryption, platform: NodeJS.Platform): boolean {
  if (!encryption.isEncryptionAvailable()) return false;
  if (platform !== 'linux') return true;
  const backend = encryption.getSelectedStorageBackend?.() ?? 'unknown';
  return backend !== 'basic_text' && backend !== 'unknown';
}

/**
 * Secrets encrypted one by one and kept in `inner` (the 0600 file in userData)
 * as `v1:` + base64. A value that no longer decrypts (the keychain was reset,
 * the file copied from another machine) reads as absent: the account is then
 * signed out and the person signs in again, rather than the app failing.
 */
export class EncryptedSecretStore implements AccountSecretStore {
  constructor(
    private readonly inner: SecretStore,
    private readonly encryption: StringEncryption,
    private readonly platform: NodeJS.Platform = process.platform,
  ) {}

  isPersistentEncryptionAvailable(): boolean {
    return isRealKeychain(this.encryption, this.platform);
  }

  /**
   * Recent Electron reports Linux `basic_text` as unavailable unless told to
   * use it. Values only reach this store there when the person chose to stay
   * signed in without a keychain (AccountSecrets keeps them in memory
   * otherwise), so it is told to; isRealKeychain still says what it is.
   */
  #allowBasicText(): void {
    if (this.platform !== 'linux' || this.encryption.isEncryptionAvailable()) return;
    if (this.encryption.getSelectedStorageBackend?.() !== 'basic_text') return;
    this.encryption.setUsePlainTextEncryption?.(true);
  }

  async get(key: string): Promise<string | undefined> {
    const stored = await this.inner.get(key);
    if (stored === undefined || !stored.startsWith(FORMAT)) return undefined;
    this.#allowBasicText();
    if (!this.encryption.isEncryptionAvailable()) throw new SecretStoreError('get', 'ENCRYPTION_UNAVAILABLE');
    try {
      return this.encryption.decryptString(Buffer.from(stored.slice(FORMAT.length), 'base64'));
    } catch {
      return undefined;
    }
  }

  async set(key: string, value: string): Promise<void> {
    this.#allowBasicText();
    // Never fall back to storing the value in clear.
    if (!this.encryption.isEncryptionAvailable()) throw new SecretStoreError('set', 'ENCRYPTION_UNAVAILABLE');
    let encrypted: Buffer;
    try {
      encrypted = this.encryption.encryptString(value);
    } catch {
      throw new SecretStoreError('set', 'ENCRYPTION_FAILED');
    }
    await this.inner.set(key, `${FORMAT}${encrypted.toString('base64')}`);
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }
}

// The app's secret store without Electron: a fake safeStorage (real AES, so a
// value written in clear would show) over the 0600 file, and the keychain
// decision per platform and Linux backend.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SecretStoreError } from '../../sync/auth/auth-errors';
import { FileSecretStore } from '../../sync/auth/secret-store';
import { EncryptedSecretStore, isRealKeychain, type StringEncryption } from './encrypted-secret-store';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';

function fakeSafeStorage(options: { available?: boolean; backend?: string } = {}): StringEncryption & {
  available: boolean;
  key: Buffer;
} {
  const fake = {
    available: options.available ?? true,
    key: randomBytes(32),
    isEncryptionAvailable: () => fake.available,
    encryptString(text: string): Buffer {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', fake.key, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decryptString(data: Buffer): string {
      const decipher = createDecipheriv('aes-256-gcm', fake.key, data.subarray(0, 12));
      decipher.setAuthTag(data.subarray(12, 28));
      return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
    },
    ...(options.backend !== undefined ? { getSelectedStorageBackend: () => options.backend as string } : {}),
  };
  return fake;
}

let file: string;
temporaryDirectoryPerTest('svc-encrypted-store-', (made) => (file = join(made, 'secrets.json')));

const SECRET = 'svcr_a-refresh-token-that-must-never-be-seen';

describe('the keychain decision', () => {
  test.each([
    ['darwin', undefined, true, true],
    ['win32', undefined, true, true],
    ['linux', 'gnome_libsecret', true, true],
    ['linux', 'kwallet6', true, true],
    ['linux', 'basic_text', true, false],
    ['linux', 'unknown', true, false],
    ['linux', undefined, true, false],
    ['darwin', undefined, false, false],
    ['linux', 'gnome_libsecret', false, false],
  ] as const)(
    '%s with backend %s and encryption available=%s: real keychain %s',
    (platform, backend, available, expected) => {
      const encryption = fakeSafeStorage({ available, ...(backend ? { backend } : {}) });
      expect(isRealKeychain(encryption, platform)).toBe(expected);
      const store = new EncryptedSecretStore(new FileSecretStore(file), encryption, platform);
      expect(store.isPersistentEncryptionAvailable()).toBe(expected);
    },
  );
});

describe('the encrypted file', () => {
  test('a secret reads back after a restart, and the file holds it only encrypted, readable by its owner alone', async () => {
    const encryption = fakeSafeStorage({ backend: 'gnome_libsecret' });
    await new EncryptedSecretStore(new FileSecretStore(file), encryption, 'linux').set(
      'refresh-token:a',
      SECRET,
    );

    const reopened = new EncryptedSecretStore(new FileSecretStore(file), encryption, 'linux');
    expect(await reopened.get('refresh-token:a')).toBe(SECRET);
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('svcr_');
    expect(JSON.parse(text)).toEqual({
      'refresh-token:a': expect.stringMatching(/^v1:[A-Za-z0-9+/=]+$/) as unknown,
    });
    if (process.platform !== 'win32') expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  test('without encryption nothing is written, not even in clear', async () => {
    const store = new EncryptedSecretStore(
      new FileSecretStore(file),
      fakeSafeStorage({ available: false }),
      'darwin',
    );
    await expect(store.set('k', SECRET)).rejects.toBeInstanceOf(SecretStoreError);
    await expect(readFile(file, 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('a value that no longer decrypts (keychain reset) reads as absent, so the account signs in again', async () => {
    const encryption = fakeSafeStorage({ backend: 'kwallet' });
    const store = new EncryptedSecretStore(new FileSecretStore(file), encryption, 'linux');
    await store.set('k', SECRET);
    encryption.key = randomBytes(32);
    expect(await store.get('k')).toBeUndefined();
  });

  test('a value stored in clear by something else is not taken for a secret', async () => {
    const inner = new FileSecretStore(file);
    await inner.set('k', SECRET);
    expect(await new EncryptedSecretStore(inner, fakeSafeStorage(), 'darwin').get('k')).toBeUndefined();
  });

  test('delete removes the entry from the file', async () => {
    const store = new EncryptedSecretStore(new FileSecretStore(file), fakeSafeStorage(), 'win32');
    await store.set('a', SECRET);
    await store.set('b', 'svc_live_another-secret-value-here');
    await store.delete('a');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBe('svc_live_another-secret-value-here');
    expect(Object.keys(JSON.parse(await readFile(file, 'utf8')) as object)).toEqual(['b']);
  });
});

describe('Linux without a secret service (basic_text)', () => {
  /** As recent Electron behaves: basic_text is reported unavailable until setUsePlainTextEncryption(true). */
  function basicTextSafeStorage() {
    const inner = fakeSafeStorage({ available: false, backend: 'basic_text' });
    return Object.assign(inner, {
      setUsePlainTextEncryption(usePlainText: boolean) {
        inner.available = usePlainText;
      },
    });
  }

  test('a sign-in the person chose to keep is stored (obfuscated) and reads back after a restart', async () => {
    const encryption = basicTextSafeStorage();
    const store = new EncryptedSecretStore(new FileSecretStore(file), encryption, 'linux');
    expect(store.isPersistentEncryptionAvailable()).toBe(false);
    await store.set('refresh-token:a', SECRET);
    expect(await readFile(file, 'utf8')).not.toContain(SECRET);
    // A restart: Electron forgot the setting; reading turns it on again.
    encryption.available = false;
    const reopened = new EncryptedSecretStore(new FileSecretStore(file), encryption, 'linux');
    expect(await reopened.get('refresh-token:a')).toBe(SECRET);
    expect(reopened.isPersistentEncryptionAvailable()).toBe(false);
  });

  test('a real keychain that is unavailable (locked) is not replaced by basic_text', async () => {
    const encryption = Object.assign(fakeSafeStorage({ available: false, backend: 'gnome_libsecret' }), {
      setUsePlainTextEncryption() {
        throw new Error('must not be called');
      },
    });
    const store = new EncryptedSecretStore(new FileSecretStore(file), encryption, 'linux');
    await expect(store.set('k', SECRET)).rejects.toBeInstanceOf(SecretStoreError);
  });
});

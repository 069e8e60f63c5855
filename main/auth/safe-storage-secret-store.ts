// The app's secret store: Electron's safeStorage encrypting each secret into a
// 0600 file in userData. Only the Electron wiring is here; the format and the
// `basic_text` decision live in encrypted-secret-store.ts, tested in Node.
import { join } from 'node:path';
import { app, safeStorage } from 'electron';
import { FileSecretStore } from '../../sync/auth/secret-store';
import type { AccountSecretStore } from '../../sync/accounts/account-secrets';
import { EncryptedSecretStore } from './encrypted-secret-store';

/** Call after `app.whenReady()`: before it, Linux reports no storage backend. */
export function safeStorageSecretStore(): AccountSecretStore {
  return new EncryptedSecretStore(
    new FileSecretStore(join(app.getPath('userData'), 'secrets.json')),
    {
      isEncryptionAvailable: () => safeStorage.isEncryptionAvailable(),
      encryptString: (text) => safeStorage.encryptString(text),
      decryptString: (data) => safeStorage.decryptString(data),
      // Only Linux has this; elsewhere the OS keychain is always the backend.
      ...(process.platform === 'linux'
        ? {
            getSelectedStorageBackend: () => safeStorage.getSelectedStorageBackend(),
            setUsePlainTextEncryption: (usePlainText: boolean) =>
              safeStorage.setUsePlainTextEncryption(usePlainText),
          }
        : {}),
    },
    process.platform,
  );
}

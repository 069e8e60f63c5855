// Where secrets go by keychain availability and the person's choice, and how
// they move when that choice changes; over a real 0600 file.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { FileSecretStore } from '../auth/secret-store';
import {
  AccountSecrets,
  accessTokenKey,
  decideSecretPersistence,
  withEncryptionReport,
} from './account-secrets';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';

let file: string;
temporaryDirectoryPerTest('svc-account-secrets-', (made) => (file = join(made, 'secrets.json')));

const KEY = accessTokenKey('a1');
const TOKEN = 'svc_live_0123456789abcdefghijkl';

async function fileText(): Promise<string> {
  return readFile(file, 'utf8').catch(() => '');
}

test.each([
  [true, false, 'encrypted'],
  [true, true, 'encrypted'],
  [false, false, 'session-only'],
  [false, true, 'unencrypted-by-choice'],
] as const)('keychain=%s, kept by choice=%s: %s', (encrypted, keep, expected) => {
  expect(decideSecretPersistence(encrypted, keep)).toBe(expected);
});

test('with a real keychain secrets go to the persistent store', async () => {
  const secrets = new AccountSecrets(withEncryptionReport(new FileSecretStore(file), true), false);
  await secrets.set(KEY, TOKEN);
  expect(await new FileSecretStore(file).get(KEY)).toBe(TOKEN);
});

test('without one, and no choice made, they stay in memory and a restart does not find them', async () => {
  const persistent = withEncryptionReport(new FileSecretStore(file), false);
  const secrets = new AccountSecrets(persistent, false);
  expect(secrets.persistence).toBe('session-only');
  await secrets.set(KEY, TOKEN);
  expect(await secrets.get(KEY)).toBe(TOKEN);
  expect(await fileText()).toBe('');
  expect(await new AccountSecrets(persistent, false).get(KEY)).toBeUndefined();
});

test('opting in moves the session secrets to the file; opting out moves them back out of it', async () => {
  const persistent = withEncryptionReport(new FileSecretStore(file), false);
  const secrets = new AccountSecrets(persistent, false);
  await secrets.set(KEY, TOKEN);

  await secrets.setKeepWithoutKeychain(true, [KEY]);
  expect(secrets.persistence).toBe('unencrypted-by-choice');
  expect(await new AccountSecrets(persistent, true).get(KEY)).toBe(TOKEN);

  await secrets.setKeepWithoutKeychain(false, [KEY]);
  expect(await secrets.get(KEY)).toBe(TOKEN);
  expect(await fileText()).not.toContain(TOKEN);
});

test('delete forgets a secret wherever it was written', async () => {
  const persistent = withEncryptionReport(new FileSecretStore(file), false);
  await persistent.set(KEY, TOKEN);
  const secrets = new AccountSecrets(persistent, false);
  await secrets.set(KEY, TOKEN);
  await secrets.delete(KEY);
  expect(await secrets.get(KEY)).toBeUndefined();
  expect(await persistent.get(KEY)).toBeUndefined();
});

// The accounts file: round trip, atomic replacement, and a damaged file never
// taken for an empty one (which would orphan mirrors with queued edits).
import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { AccountRegistryUnreadableError, MirrorFileRefusedError } from './account-errors';
import {
  type AccountRecord,
  AccountRegistry,
  REGISTRY_FILE_NAME,
  mirrorFileNameFor,
} from './account-registry';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';

let directory: string;
temporaryDirectoryPerTest('svc-registry-', (made) => (directory = made));

const record: AccountRecord = {
  id: 'a1',
  base_url: 'https://api.example',
  auth_url: 'https://api.example',
  client_id: 'svcc_desktop',
  identity: { user_id: 'u1', username: 'usr_ada', email: null, org_id: 'org_1' },
  token_kind: 'oauth',
  read_only: false,
  mirror_file: mirrorFileNameFor('a1'),
  signed_in: true,
  signed_out_reason: null,
  created_at: '2026-11-22T00:00:00.000Z',
  signed_in_at: '2026-11-22T00:00:00.000Z',
};

test('a missing file is an empty registry, and nothing is written until something changes', async () => {
  const registry = await AccountRegistry.open(directory);
  expect(registry.accounts).toEqual([]);
  expect(await readdir(directory)).toEqual([]);
});

test('accounts round-trip through the file, which only its owner can read, with no temporary file left', async () => {
  const registry = await AccountRegistry.open(directory);
  await registry.putAccount(record);
  await registry.update((draft) => {
    draft.current_account_id = 'a1';
  });
  const reopened = await AccountRegistry.open(directory);
  expect(reopened.accounts).toEqual([record]);
  expect(reopened.contents.current_account_id).toBe('a1');
  expect(reopened.mirrorPath(record)).toBe(join(directory, 'mirror-a1.sqlite'));
  expect(await readdir(directory)).toEqual([REGISTRY_FILE_NAME]);
  if (process.platform !== 'win32') expect((await stat(reopened.file)).mode & 0o777).toBe(0o600);
});

test('a change that does not fit the schema is refused and changes neither memory nor file', async () => {
  const registry = await AccountRegistry.open(directory);
  await registry.putAccount(record);
  const before = await readFile(registry.file, 'utf8');
  await expect(
    registry.update((draft) => {
      (draft.accounts[0] as { token_kind: string }).token_kind = 'password';
    }),
  ).rejects.toThrow();
  expect(registry.accounts[0]?.token_kind).toBe('oauth');
  expect(await readFile(registry.file, 'utf8')).toBe(before);
});

test.each([
  ['not JSON', '{"version":1,'],
  ['another shape', '{"version":2,"accounts":[]}'],
])('a damaged file (%s) is an error, and is left as it is', async (_, text) => {
  const file = join(directory, REGISTRY_FILE_NAME);
  await writeFile(file, text);
  await expect(AccountRegistry.open(directory)).rejects.toBeInstanceOf(AccountRegistryUnreadableError);
  expect(await readFile(file, 'utf8')).toBe(text);
});

test('fields written by a newer version are kept', async () => {
  const registry = await AccountRegistry.open(directory);
  await registry.putAccount({ ...record, org_name: 'Northwind' });
  const reopened = await AccountRegistry.open(directory);
  expect(reopened.accounts[0]).toMatchObject({ org_name: 'Northwind' });
});

test.each([
  ['a relative path out of the folder', '../../x'],
  ['an absolute path', '/tmp/x.sqlite'],
  ["another account's mirror", mirrorFileNameFor('a2')],
  ['a name of another pattern', 'notes.sqlite'],
])('an accounts file naming %s as a mirror is refused, and left as it is', async (_, mirrorFile) => {
  const file = join(directory, REGISTRY_FILE_NAME);
  const text = JSON.stringify({
    version: 1,
    current_account_id: 'a1',
    keep_secrets_without_keychain: false,
    accounts: [{ ...record, mirror_file: mirrorFile }],
  });
  await writeFile(file, text);
  const error = await AccountRegistry.open(directory).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(AccountRegistryUnreadableError);
  expect((error as Error).message).toContain('accounts.0.mirror_file');
  expect(await readFile(file, 'utf8')).toBe(text);
});

test.each([
  ['../../x', 'a1'],
  ['/tmp/x.sqlite', 'a1'],
  [mirrorFileNameFor('../x'), '../x'],
])('the mirror path of a record naming %s is refused before anything uses it', async (mirrorFile, id) => {
  const registry = await AccountRegistry.open(directory);
  expect(() => registry.mirrorPath({ ...record, id, mirror_file: mirrorFile })).toThrow(
    MirrorFileRefusedError,
  );
  await expect(registry.putAccount({ ...record, id, mirror_file: mirrorFile })).rejects.toThrow();
  expect(registry.accounts).toEqual([]);
});

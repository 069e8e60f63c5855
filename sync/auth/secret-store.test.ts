import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { SecretStoreError } from './auth-errors';
import {
  FileSecretStore,
  MemorySecretStore,
  type SecretStore,
  secretFileBesideDatabase,
} from './secret-store';
import { temporaryDirectoryPerTest } from '../../test/support/temporary-directory';

let directory: string;
temporaryDirectoryPerTest('svc-secret-store-', (made) => (directory = made));

const stores: [string, () => SecretStore][] = [
  ['memory', () => new MemorySecretStore()],
  ['file', () => new FileSecretStore(join(directory, 'account.db.secrets.json'))],
];

describe.each(stores)('%s secret store', (_name, makeStore) => {
  test('gives back what was set, undefined for an unknown key, and forgets on delete', async () => {
    const store = makeStore();
    expect(await store.get('a')).toBeUndefined();
    await store.set('a', 'one');
    await store.set('b', 'two');
    await store.set('a', 'three');
    expect(await store.get('a')).toBe('three');
    expect(await store.get('b')).toBe('two');
    await store.delete('a');
    await store.delete('never-set');
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('b')).toBe('two');
  });

  test('concurrent sets of different keys all land', async () => {
    const store = makeStore();
    await Promise.all(Array.from({ length: 10 }, (_, i) => store.set(`k${i}`, `v${i}`)));
    for (let i = 0; i < 10; i++) expect(await store.get(`k${i}`)).toBe(`v${i}`);
  });
});

describe('file secret store', () => {
  test('sits beside the database and is readable by its owner only (0600)', async () => {
    const path = secretFileBesideDatabase(join(directory, 'account.db'));
    expect(path).toBe(join(directory, 'account.db.secrets.json'));
    await new FileSecretStore(path).set('refresh-token:a', 'secret-value');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  test('a file left readable by others is made 0600 again on the next write', async () => {
    const path = join(directory, 'secrets.json');
    await writeFile(path, JSON.stringify({ a: 'old' }), { mode: 0o644 });
    const store = new FileSecretStore(path);
    expect(await store.get('a')).toBe('old');
    await store.set('b', 'new');
    expect((await stat(path)).mode & 0o777).toBe(0o600);
  });

  test('a fresh store object on the same file sees what an earlier one saved (a restart)', async () => {
    const path = join(directory, 'secrets.json');
    await new FileSecretStore(path).set('refresh-token:a', 'kept');
    expect(await new FileSecretStore(path).get('refresh-token:a')).toBe('kept');
  });

  test('creates the folder it needs', async () => {
    const path = join(directory, 'nested', 'deeper', 'secrets.json');
    await new FileSecretStore(path).set('a', 'b');
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ a: 'b' });
  });

  test('a corrupt file is a typed error that does not quote the file', async () => {
    const path = join(directory, 'secrets.json');
    await writeFile(path, '{"a": "svc_live_half-written', { mode: 0o600 });
    const error = await new FileSecretStore(path).get('a').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error).toMatchObject({ type: 'secret-store-failed', operation: 'get', code: 'EBADFORMAT' });
    expect(String((error as Error).message)).not.toContain('svc_live_');
  });

  test('a file that cannot be written is a typed set error', async () => {
    // A directory where the file should be: writing fails whoever runs the test (root included).
    const path = join(directory, 'occupied');
    await new FileSecretStore(join(path, 'x')).set('a', 'b');
    const error = await new FileSecretStore(path).set('a', 'b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretStoreError);
    expect(error).toMatchObject({ type: 'secret-store-failed', operation: 'set' });
  });
});

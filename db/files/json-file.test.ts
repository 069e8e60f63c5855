import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { readJsonFile, readJsonFileSync, writeJsonFile, writeJsonFileSync } from './json-file';

const schema = z.object({ name: z.string(), count: z.number().int() });

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'json-file-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

let umask: number;
beforeAll(() => {
  // The usual umask, which leaves new files and folders readable by everyone.
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});

describe.each([
  { flavour: 'async', read: readJsonFile, write: writeJsonFile },
  {
    flavour: 'sync',
    read: (file: string, s: typeof schema) => Promise.resolve(readJsonFileSync(file, s)),
    write: (file: string, value: unknown, options?: { pretty?: boolean }) =>
      Promise.resolve(writeJsonFileSync(file, value, options)),
  },
])('a JSON file of the app ($flavour)', ({ read, write }) => {
  test('what is written is read back, in a new folder, readable by its owner alone', async () => {
    const file = join(dir, 'nested', 'settings.json');
    await write(file, { name: 'ada', count: 2 });
    expect(await read(file, schema)).toEqual({ state: 'read', value: { name: 'ada', count: 2 } });
    expect(readFileSync(file, 'utf8')).toBe('{\n  "name": "ada",\n  "count": 2\n}\n');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
  });

  test('a file left readable by others (an older version wrote it) is tightened when read', async () => {
    const file = join(dir, 'settings.json');
    writeFileSync(file, '{"name":"ada","count":1}', { mode: 0o644 });
    chmodSync(file, 0o644);
    expect(await read(file, schema)).toEqual({ state: 'read', value: { name: 'ada', count: 1 } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  test('a missing file is missing, not an error', async () => {
    expect(await read(join(dir, 'none.json'), schema)).toEqual({ state: 'missing' });
  });

  test('a file that is not JSON, or does not fit the schema, is unreadable and says why', async () => {
    const file = join(dir, 'bad.json');
    writeFileSync(file, '{"name": "ada", "count"');
    expect(await read(file, schema)).toEqual({ state: 'unreadable', code: null, reason: 'not JSON' });
    writeFileSync(file, '{"name": 7, "count": 1.5}');
    expect(await read(file, schema)).toEqual({
      state: 'unreadable',
      code: null,
      reason: 'unexpected name, count',
    });
  });

  test('a temporary file left by a crashed write does not stop the next one, nor survive it', async () => {
    const file = join(dir, 'state.json');
    writeFileSync(`${file}.${process.pid}.tmp`, 'half a fi');
    await write(file, { name: 'b', count: 1 }, { pretty: false });
    expect(readFileSync(file, 'utf8')).toBe('{"name":"b","count":1}');
    expect(() => statSync(`${file}.${process.pid}.tmp`)).toThrow();
  });
});

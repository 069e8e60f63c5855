import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT_SETTINGS, readSettingsFile, SettingsStore } from './settings-store';

let directory: string;
let file: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'svc-settings-'));
  file = join(directory, 'userData', 'settings.json');
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

test('a first start has the defaults and no file yet', () => {
  expect(new SettingsStore(file).get()).toEqual(DEFAULT_SETTINGS);
});

test('changes survive a restart', () => {
  const bounds = { x: 100, y: 80, width: 1300, height: 900 };
  new SettingsStore(file).update((current) => ({
    ...current,
    theme: 'dark',
    window: { bounds, maximized: true },
  }));
  expect(new SettingsStore(file).get()).toEqual({ theme: 'dark', window: { bounds, maximized: true } });
  expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
    theme: 'dark',
    window: { bounds, maximized: true },
  });
});

test.each([
  ['not JSON', '{"theme": "dark", "wind'],
  ['not an object', '42'],
  ['empty', ''],
])('a file that is %s gives the defaults', (_case, text) => {
  new SettingsStore(file).update((current) => current);
  writeFileSync(file, text);
  expect(readSettingsFile(file)).toEqual(DEFAULT_SETTINGS);
});

test('a field that cannot be read falls back alone, keeping the rest', () => {
  new SettingsStore(file).update((current) => current);
  writeFileSync(
    file,
    JSON.stringify({
      theme: 'sepia',
      window: { bounds: { x: 0, y: 0, width: -5, height: 10 }, maximized: true },
    }),
  );
  expect(readSettingsFile(file)).toEqual({ theme: 'system', window: { maximized: true } });
  writeFileSync(file, JSON.stringify({ theme: 'light', window: 'big' }));
  expect(readSettingsFile(file)).toEqual({ theme: 'light', window: { maximized: false } });
});

test("the attachments' cache size is kept; one that is not a whole number of bytes is left out (1 GB then)", () => {
  new SettingsStore(file).update((current) => ({ ...current, attachment_cache_bytes: 500_000_000 }));
  expect(new SettingsStore(file).get().attachment_cache_bytes).toBe(500_000_000);
  writeFileSync(file, JSON.stringify({ theme: 'dark', attachment_cache_bytes: -1 }));
  expect(readSettingsFile(file)).toEqual({ theme: 'dark', window: { maximized: false } });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { type EventName, invokeChannels, type ThemePreference } from '../../ipc/contract';
import { settingsHandlers } from './settings-handlers';
import { SettingsStore } from './settings-store';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'svc-settings-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function setUp() {
  const store = new SettingsStore(join(directory, 'settings.json'));
  const applied: ThemePreference[] = [];
  const emitted: [EventName, unknown][] = [];
  const handlers = settingsHandlers({
    store,
    applyTheme: (theme) => applied.push(theme),
    emit: (event, payload) => emitted.push([event, payload]),
  });
  return { store, handlers, applied, emitted };
}

const context = { senderId: 1, senderGone: new AbortController().signal };

test('settings:set stores, applies and announces the theme', async () => {
  const { store, handlers, applied, emitted } = setUp();
  expect(await handlers['settings:set']?.({ theme: 'dark' }, context)).toEqual({ theme: 'dark' });
  expect(applied).toEqual(['dark']);
  expect(emitted).toEqual([['settings:changed', { theme: 'dark' }]]);
  expect(new SettingsStore(store.filePath).get().theme).toBe('dark');
  expect(await handlers['settings:get']?.(undefined, context)).toEqual({ theme: 'dark' });
});

test('settings:set leaves out what it was not given and keeps the window bounds', async () => {
  const { store, handlers } = setUp();
  const window = { bounds: { x: 1, y: 2, width: 900, height: 700 }, maximized: false };
  store.update((current) => ({ ...current, theme: 'light', window }));
  expect(await handlers['settings:set']?.({}, context)).toEqual({ theme: 'light' });
  expect(store.get().window).toEqual(window);
});

test("the attachments' cache size is 1 GB until set, kept in settings.json, said with what the account keeps; a size past reason is refused", async () => {
  const store = new SettingsStore(join(directory, 'settings.json'));
  let kept = 4096;
  const handlers = settingsHandlers({
    store,
    applyTheme: () => undefined,
    emit: () => undefined,
    attachmentBytesKept: () => kept,
  });
  expect(await handlers['attachment-cache:get']?.(undefined, context)).toEqual({
    limit_bytes: 1024 ** 3,
    used_bytes: 4096,
  });
  kept = 8192;
  expect(await handlers['attachment-cache:set']?.({ limit_bytes: 512 * 1024 ** 2 }, context)).toEqual({
    limit_bytes: 512 * 1024 ** 2,
    used_bytes: 8192,
  });
  // What each account's engine reads at its next fill.
  expect(new SettingsStore(store.filePath).get().attachment_cache_bytes).toBe(512 * 1024 ** 2);

  const input = invokeChannels['attachment-cache:set'].input;
  expect(input.safeParse({ limit_bytes: 0 }).success).toBe(true);
  for (const refused of [{ limit_bytes: -1 }, { limit_bytes: 1.5 }, { limit_bytes: 2 * 1024 ** 4 }, {}])
    expect(input.safeParse(refused).success).toBe(false);
});

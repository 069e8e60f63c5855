import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { EventName, ThemePreference } from '../../ipc/contract';
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

const context = { senderId: 1 };

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

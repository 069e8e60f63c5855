import { expect, test } from 'vitest';
import { secureWebPreferences } from './web-preferences';

test('every window is isolated, sandboxed, without Node and with web security on', () => {
  const preferences = secureWebPreferences({ preloadPath: '/app/out/preload/index.cjs', devTools: false });
  expect(preferences).toEqual({
    preload: '/app/out/preload/index.cjs',
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: true,
    devTools: false,
  });
});

test('turns on no Blink features and sets nothing beyond the checklist', () => {
  const preferences = secureWebPreferences({ preloadPath: '/p.cjs', devTools: true });
  const keys = Object.keys(preferences);
  for (const risky of [
    'enableBlinkFeatures',
    'additionalArguments',
    'partition',
    'session',
    'disableBlinkFeatures',
  ]) {
    expect(keys).not.toContain(risky);
  }
  expect(preferences.devTools).toBe(true);
});

// The README's commands as package.json runs them: `npm start` builds and
// starts the app with better-sqlite3 built for Electron, `npm run demo` is
// that with the demo at launch, `npm test` is what CI runs. Electron cannot
// start here, so what it would run is checked instead.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from 'vitest';
import { demoRequested } from './desktop-services';

const root = resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as {
  main: string;
  scripts: Record<string, string>;
};

test('npm start builds the Electron addon first, then builds and starts the app (electron-vite preview builds)', () => {
  expect(pkg.scripts['prestart']).toBe('npm run native:electron');
  expect(pkg.scripts['native:electron']).toContain('main/native/prepare-electron-addon.ts');
  expect(pkg.scripts['start']).toBe('electron-vite preview');
  // Electron loads what electron-vite builds from main/index.ts.
  expect(pkg.main).toBe('out/main/index.js');
});

test('npm run demo starts the app with the flag main reads to sign in to the demo at launch', () => {
  const launcher = readFileSync(resolve(root, 'test/demo/start-demo.ts'), 'utf8');
  expect(launcher).toMatch(/spawn\(npm, \['start'\]/);
  const flag = /SVC_DEMO: '([^']*)'/.exec(launcher);
  expect(flag).not.toBeNull();
  expect(demoRequested({ SVC_DEMO: flag?.[1] })).toBe(true);
  expect(pkg.scripts['demo']).toBe('tsx test/demo/start-demo.ts');
});

test('npm test type-checks, lints, builds (the e2e suite runs the built renderer) and runs every test', () => {
  expect(pkg.scripts['test']).toBe('npm run typecheck && npm run lint && npm run build && vitest run');
});

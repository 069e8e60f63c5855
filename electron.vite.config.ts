// Builds the three Electron targets into out/: main (Node, ESM), preload
// (CommonJS, because a sandboxed preload cannot be an ES module) and the renderer.
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import { readAddonDigests } from './main/native/sqlite-addon';
import { cspMetaPlugin } from './main/security/csp-meta-plugin';

export default defineConfig({
  main: {
    // The SQLite addon loads from outside the asar: its SHA-256, made by `npm run native:electron`
    // (which runs first), is built in here and checked before loading (main/native/sqlite-addon.ts).
    define: { __SQLITE_ADDON_SHA256__: JSON.stringify(readAddonDigests(import.meta.dirname)) },
    build: {
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'main/index.ts'),
          // A worker thread loads a file, not an import: the pull worker is an entry of its
          // own, out/main/pull-store-worker.js, which main passes to the sync engine.
          'pull-store-worker': resolve(import.meta.dirname, 'sync/pull/pull-store-worker.ts'),
          // Likewise the worker that migrates an older app's mirror off main's thread.
          'mirror-upgrade-worker': resolve(import.meta.dirname, 'sync/accounts/mirror-upgrade-worker.ts'),
        },
        output: {
          // The wire schemas in a chunk of their own: main, the pull worker and the demo's emulator
          // (loaded only when a person starts it) all read them, and the demo's chunk then needs
          // nothing from main's entry, so it loads on its own (test/e2e/built-main.test.ts).
          manualChunks: (id) => (id.includes('/protocol/') ? 'protocol' : undefined),
        },
      },
    },
  },
  preload: {
    build: {
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(import.meta.dirname, 'renderer'),
    plugins: [react(), cspMetaPlugin()],
    build: {
      // The page parses its script on every start: minified, it is ready sooner (first rows in the ui bench).
      minify: true,
      rollupOptions: { input: { index: resolve(import.meta.dirname, 'renderer/index.html') } },
    },
  },
});

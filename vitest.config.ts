import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      '{protocol,db,sync,emulator,main,preload,renderer,test}/**/*.test.ts',
      'renderer/**/*.test.tsx',
    ],
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    globalSetup: ['./test/support/build-cli-setup.ts'],
    // Tests start real servers and write real SQLite files; two cores here.
    pool: 'forks',
    // CI runs the whole suite on two shared cores, where a test timing real
    // HTTP against the emulator can lose a race with the scheduler. One retry
    // there keeps a landing from hanging on such a race; vitest still reports
    // the test as flaky, and a real failure fails twice.
    retry: process.env['CI'] ? 1 : 0,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

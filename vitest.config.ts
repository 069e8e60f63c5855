import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['{sync,db,main,preload,renderer,test}/**/*.test.ts'],
    reporters: ['default', './test/support/plain-summary-reporter.ts'],
    // Tests start real servers and write real SQLite files; two cores here.
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

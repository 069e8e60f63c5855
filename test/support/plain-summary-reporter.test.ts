// The closing line CI reads counts a test file that failed to load as failed:
// a real vitest run over a file that passes and one that throws at import.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const fixture = join(import.meta.dirname, 'fixtures', 'summary-run');

test('a file that throws at import is one failure in the closing line', () => {
  const run = spawnSync(join(root, 'node_modules', '.bin', 'vitest'), ['run', '--root', fixture], {
    cwd: fixture,
    encoding: 'utf8',
    env: { ...process.env, CI: '' },
  });
  const lines = run.stdout.trimEnd().split('\n');
  expect(lines.at(-1), run.stdout + run.stderr).toBe('vitest: 1 passed, 1 failed, 0 skipped');
  expect(run.status).toBe(1);
});

// Vitest's global setup: builds the headless command (build/build-cli.js, a
// fraction of a second) before any test file runs, so that the command tests
// spawn through bin/svc-desktop.js is the one that ships, built from this
// checkout's source, never a stale build.
import { spawnSync } from 'node:child_process';

export default function buildHeadlessCommand(): void {
  const built = spawnSync(process.execPath, ['build/build-cli.js'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build/build-cli.js failed:\n${built.stderr}`);
}

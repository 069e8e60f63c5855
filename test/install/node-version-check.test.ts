// `npm install` checks Node first (package.json's preinstall), with one clear
// message when this Node is not one engines.node allows: the build chain (vite 8,
// electron-vite 6, rolldown) and Electron's loaders need require(esm), which
// Node has without a flag from 20.19 and from 22.12.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

function check(...version: string[]) {
  return spawnSync(process.execPath, ['build/check-node-version.js', ...version], {
    cwd: root,
    encoding: 'utf8',
  });
}

test('npm install runs the Node check before anything is installed', () => {
  expect(pkg.scripts['preinstall']).toBe('node build/check-node-version.js');
  expect(pkg.engines.node).toBe('^20.19.0 || >=22.12.0');
});

test('this Node passes, silently', () => {
  const run = check();
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
});

test.each([
  ['20.19.0', true],
  ['20.20.2', true],
  ['22.12.0', true],
  ['24.1.0', true],
  ['v26.0.0', true],
  ['18.20.4', false],
  ['20.18.3', false],
  ['21.7.3', false],
  ['22.11.0', false],
])('Node %s allowed: %s', (version, allowed) => {
  const run = check(version);
  expect(run.status).toBe(allowed ? 0 : 1);
  if (allowed) return;
  expect(run.stderr).toBe(
    `svc-desktop needs Node ^20.19.0 || >=22.12.0 (22.12 or newer recommended: Node 20 is past its end of life); ` +
      `this is Node ${version}. Install a current Node (https://nodejs.org, or \`nvm install 22\`) and run npm install again.\n`,
  );
});

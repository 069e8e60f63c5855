// The Electron we pin must be one Electron still supports (its latest three
// majors, which alone get Chromium's security fixes), judged against the newest
// major recorded in build/electron-support.json, so a pin cannot rot silently.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const readJson = (path: string): unknown => JSON.parse(readFileSync(join(root, path), 'utf8'));

/** Electron gets security fixes in its newest major and the two before it. */
const SUPPORTED_MAJORS = 3;

/** The major a package.json range pins: `^45.4.1`, `~45.4` or `45.4.1`; anything looser is refused. */
function pinnedMajor(range: string): number {
  const match = /^[\^~]?(\d+)(\.\d+){0,2}$/.exec(range.trim());
  if (!match?.[1]) throw new Error(`electron is pinned as "${range}": pin one major (^45.4.1)`);
  return Number(match[1]);
}

/** Why a pin is not supported against the newest recorded major, or undefined when it is. */
function supportProblem(range: string, newestMajor: number): string | undefined {
  const major = pinnedMajor(range);
  if (major > newestMajor) {
    return `electron ${range} is newer than the ${newestMajor} recorded in build/electron-support.json: update the record`;
  }
  if (newestMajor - major >= SUPPORTED_MAJORS) {
    return `electron ${range} is ${newestMajor - major} majors behind ${newestMajor}: Electron supports only its latest ${SUPPORTED_MAJORS}`;
  }
  return undefined;
}

const record = readJson('build/electron-support.json') as { newestMajor: number; newestVersion: string };
const pin = (readJson('package.json') as { devDependencies: Record<string, string> }).devDependencies[
  'electron'
];

test('the pinned Electron is within the latest three majors recorded', () => {
  expect(pin).toBeDefined();
  expect(supportProblem(pin ?? '', record.newestMajor)).toBeUndefined();
});

test('the installed Electron is the pinned major (the lockfile moved with package.json)', () => {
  const installed = readJson('node_modules/electron/package.json') as { version: string };
  expect(pinnedMajor(installed.version)).toBe(pinnedMajor(pin ?? ''));
});

test("prebuild-install's node-abi maps the installed Electron to the ABI Electron records (npm run native:electron downloads by it)", () => {
  const installed = readJson('node_modules/electron/package.json') as { version: string };
  const abi = readFileSync(join(root, 'node_modules', 'electron', 'abi_version'), 'utf8').trim();
  const fromPrebuild = createRequire(join(root, 'node_modules', 'prebuild-install', 'package.json'));
  const nodeAbi = fromPrebuild('node-abi') as { getAbi(target: string, runtime: string): string };
  expect(nodeAbi.getAbi(installed.version, 'electron')).toBe(abi);
});

test("the record's newest version is of its newest major", () => {
  expect(pinnedMajor(record.newestVersion)).toBe(record.newestMajor);
});

describe('judging a pin against the newest major', () => {
  test.each([
    ['^45.4.1', 45, true],
    ['^43.0.0', 45, true],
    ['~44.1', 45, true],
    ['^42.3.0', 45, false],
    ['^39.8.10', 45, false],
    ['^46.0.0', 45, false],
  ])('electron %s against newest %i: supported %s', (range, newest, supported) => {
    expect(supportProblem(range, newest) === undefined).toBe(supported);
  });

  test.each(['*', '>=30', 'latest', '^45 || ^44'])('refuses the loose pin %s', (range) => {
    expect(() => pinnedMajor(range)).toThrow(/pin one major/);
  });
});

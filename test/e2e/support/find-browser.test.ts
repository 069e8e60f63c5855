// Finding the e2e browser on macOS, Windows and Linux: over candidate paths
// with a made-up set of files, and over real files in a temp folder.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { type BrowserLookup, browserCandidates, findBrowser, isFile, NO_BROWSER } from './find-browser';

const linux: BrowserLookup = { platform: 'linux', env: {}, home: '/home/ann' };
const mac: BrowserLookup = { platform: 'darwin', env: {}, home: '/Users/ann' };
const windows: BrowserLookup = {
  platform: 'win32',
  env: {
    LOCALAPPDATA: 'C:\\Users\\ann\\AppData\\Local',
    PROGRAMFILES: 'C:\\Program Files',
    'PROGRAMFILES(X86)': 'C:\\Program Files (x86)',
  },
  home: 'C:\\Users\\ann',
};
const files =
  (...paths: string[]) =>
  (path: string) =>
    paths.includes(path);

describe('the browser found', () => {
  test.each<[string, BrowserLookup, string[], string]>([
    ["Debian's chromium", linux, ['/usr/bin/chromium', '/usr/bin/google-chrome'], '/usr/bin/chromium'],
    ["Ubuntu's chromium-browser", linux, ['/usr/bin/chromium-browser'], '/usr/bin/chromium-browser'],
    ['Google Chrome on Linux', linux, ['/opt/google/chrome/chrome'], '/opt/google/chrome/chrome'],
    ['the snap', linux, ['/snap/bin/chromium'], '/snap/bin/chromium'],
    [
      'Google Chrome on macOS',
      mac,
      ['/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
      '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    ],
    [
      "Chromium in the person's own Applications",
      mac,
      ['/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium'],
      '/Users/ann/Applications/Chromium.app/Contents/MacOS/Chromium',
    ],
    [
      'Chrome installed for the person on Windows',
      windows,
      ['C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe'],
      'C:\\Users\\ann\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
    ],
    [
      'Chrome before Edge on Windows',
      windows,
      [
        'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
        'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
      ],
      'C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe',
    ],
    [
      'Edge when Windows has nothing else',
      windows,
      ['C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe'],
      'C:\\Program Files (x86)\\Microsoft\\Edge\\Application\\msedge.exe',
    ],
    [
      "Playwright's download when nothing is installed",
      { ...linux, playwrightChromium: '/home/ann/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome' },
      ['/home/ann/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome'],
      '/home/ann/.cache/ms-playwright/chromium-1255/chrome-linux64/chrome',
    ],
    [
      'CHROMIUM_PATH before anything installed',
      { ...linux, env: { CHROMIUM_PATH: '/opt/my/chrome' } },
      ['/opt/my/chrome', '/usr/bin/chromium'],
      '/opt/my/chrome',
    ],
  ])('%s', (_name, lookup, present, expected) => {
    expect(findBrowser(lookup, files(...present))).toEqual({ ok: true, path: expected });
  });

  test("a Linux path is not looked for on macOS or Windows, and Linux's not elsewhere", () => {
    expect(findBrowser(mac, files('/usr/bin/chromium'))).toEqual({ ok: false, problem: NO_BROWSER });
    expect(browserCandidates(windows).every((path) => path.startsWith('C:\\'))).toBe(true);
    expect(browserCandidates(linux).some((path) => path.includes('Applications'))).toBe(false);
  });
});

describe('no browser', () => {
  test.each([linux, mac, windows])('on $platform: one line on how to get one', (lookup) => {
    const found = findBrowser(lookup, () => false);
    expect(found).toEqual({ ok: false, problem: NO_BROWSER });
    expect(NO_BROWSER).not.toContain('\n');
    expect(NO_BROWSER).toMatch(/apt install chromium.*brew install --cask chromium.*CHROMIUM_PATH/);
  });

  test('a CHROMIUM_PATH that names no file is said so, not swapped for another browser', () => {
    const found = findBrowser(
      { ...linux, env: { CHROMIUM_PATH: '/nowhere/chrome' } },
      files('/usr/bin/chromium'),
    );
    expect(found.ok).toBe(false);
    expect(found.ok ? '' : found.problem).toContain('CHROMIUM_PATH is /nowhere/chrome, which is not a file');
  });

  test('Windows without its folder variables still fails with the line', () => {
    expect(findBrowser({ ...windows, env: {} }, () => true)).toEqual({ ok: false, problem: NO_BROWSER });
  });
});

describe('over real files', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  test("finds a Chromium.app in a home folder's Applications, and not a folder of the binary's name", () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-find-browser-'));
    const macOsFolder = join(dir, 'Applications', 'Chromium.app', 'Contents', 'MacOS');
    mkdirSync(join(macOsFolder, 'Chromium'), { recursive: true });
    const lookup: BrowserLookup = { ...mac, home: dir };
    expect(findBrowser(lookup, isFile)).toEqual({ ok: false, problem: NO_BROWSER });

    rmSync(join(macOsFolder, 'Chromium'), { recursive: true });
    writeFileSync(join(macOsFolder, 'Chromium'), '');
    expect(findBrowser(lookup, isFile)).toEqual({ ok: true, path: join(macOsFolder, 'Chromium') });
  });
});

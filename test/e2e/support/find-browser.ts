// Which Chrome or Chromium the end-to-end tests and the ui benchmark drive:
// CHROMIUM_PATH when set, else the first installed at the usual places on
// macOS, Windows and Linux, else Playwright's own download; when there is none,
// one line that says how to get one. Nothing here downloads a browser.
import { statSync } from 'node:fs';
import { posix, win32 } from 'node:path';

export interface BrowserLookup {
  readonly platform: NodeJS.Platform;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly home: string;
  /** Where `npx playwright-core install chromium` puts its Chromium, if known. */
  readonly playwrightChromium?: string | undefined;
}

export type BrowserFound =
  { readonly ok: true; readonly path: string } | { readonly ok: false; readonly problem: string };

export const NO_BROWSER =
  'No Chrome or Chromium for the end-to-end tests: install one (Debian/Ubuntu: sudo apt install chromium; ' +
  'macOS: brew install --cask chromium; Windows: winget install Google.Chrome), or run ' +
  '`npx playwright-core install chromium`, or set CHROMIUM_PATH to a Chrome or Chromium binary.';

function macCandidates(home: string): string[] {
  const apps = [
    'Google Chrome.app/Contents/MacOS/Google Chrome',
    'Chromium.app/Contents/MacOS/Chromium',
    'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary',
    'Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
  ];
  return apps.flatMap((app) => [posix.join('/Applications', app), posix.join(home, 'Applications', app)]);
}

function windowsCandidates(env: BrowserLookup['env']): string[] {
  const roots = [env['LOCALAPPDATA'], env['PROGRAMFILES'], env['PROGRAMFILES(X86)']].filter(
    (root): root is string => root !== undefined && root !== '',
  );
  const apps = [
    'Google\\Chrome\\Application\\chrome.exe',
    'Chromium\\Application\\chrome.exe',
    // Edge is Chromium and comes with Windows: the last resort before failing.
    'Microsoft\\Edge\\Application\\msedge.exe',
  ];
  return apps.flatMap((app) => roots.map((root) => win32.join(root, app)));
}

const LINUX_CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome-stable',
  '/usr/bin/google-chrome',
  '/snap/bin/chromium',
  '/opt/google/chrome/chrome',
];

/** Where to look, in order (without CHROMIUM_PATH, which is taken as given). */
export function browserCandidates(lookup: BrowserLookup): string[] {
  const installed =
    lookup.platform === 'darwin'
      ? macCandidates(lookup.home)
      : lookup.platform === 'win32'
        ? windowsCandidates(lookup.env)
        : LINUX_CANDIDATES;
  return lookup.playwrightChromium === undefined ? installed : [...installed, lookup.playwrightChromium];
}

/** The browser to drive, given which paths are files. */
export function findBrowser(lookup: BrowserLookup, isFile: (path: string) => boolean): BrowserFound {
  const chosen = lookup.env['CHROMIUM_PATH'];
  if (chosen !== undefined && chosen !== '') {
    // Asked for by name: never quietly swapped for another browser.
    return isFile(chosen)
      ? { ok: true, path: chosen }
      : { ok: false, problem: `CHROMIUM_PATH is ${chosen}, which is not a file. ${NO_BROWSER}` };
  }
  const path = browserCandidates(lookup).find(isFile);
  return path === undefined ? { ok: false, problem: NO_BROWSER } : { ok: true, path };
}

export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  APP_ENTRY_URL,
  contentTypeFor,
  pageOrigin,
  resolveAppFile,
  trustedPageUrlCheck,
} from './app-protocol';

const root = resolve('/srv/app/out/renderer');

describe('serving app:// from the built renderer', () => {
  test.each([
    [APP_ENTRY_URL, join(root, 'index.html')],
    ['app://svc-desktop/', join(root, 'index.html')],
    ['app://svc-desktop', join(root, 'index.html')],
    ['app://svc-desktop/assets/index-abc123.js?v=1#x', join(root, 'assets', 'index-abc123.js')],
    ['app://svc-desktop/assets/a%20b.css', join(root, 'assets', 'a b.css')],
    ['app://SVC-DESKTOP/index.html', join(root, 'index.html')],
    // The URL parser folds leading dot segments at the root, so these stay inside it.
    ['app://svc-desktop/../../etc/passwd', join(root, 'etc', 'passwd')],
    ['app://svc-desktop/%2e%2e/%2e%2e/etc/passwd', join(root, 'etc', 'passwd')],
  ])('%s is %s', (url, file) => {
    expect(resolveAppFile(url, root)).toBe(file);
  });

  test.each([
    'app://svc-desktop/assets/..%2f..%2f..%2fetc/passwd',
    'app://svc-desktop/assets/%5c..%5c..%5csecret',
    'app://svc-desktop/index.html%00.js',
    'app://svc-desktop/%E0%A4%A',
    'app://other/index.html',
    'file:///srv/app/out/renderer/index.html',
    'https://svc-desktop/index.html',
    'not a url',
  ])('%s is refused', (url) => {
    expect(resolveAppFile(url, root)).toBeNull();
  });
});

describe('our pages', () => {
  test('the origin of a custom-scheme URL is its scheme and host', () => {
    expect(pageOrigin(APP_ENTRY_URL)).toBe('app://svc-desktop');
    expect(pageOrigin('http://localhost:5173/index.html')).toBe('http://localhost:5173');
    expect(pageOrigin('file:///x/index.html')).toBeNull();
    expect(pageOrigin('nonsense')).toBeNull();
  });

  test('are exactly the trusted origins', () => {
    const isOurs = trustedPageUrlCheck(['app://svc-desktop', 'http://localhost:5173']);
    expect(isOurs('app://svc-desktop/index.html')).toBe(true);
    expect(isOurs('http://localhost:5173/')).toBe(true);
    expect(isOurs('http://localhost:5174/')).toBe(false);
    expect(isOurs('http://localhost.evil.test:5173/')).toBe(false);
    expect(isOurs('app://svc-desktop.evil/index.html')).toBe(false);
    expect(isOurs('https://svc-desktop/')).toBe(false);
  });
});

test.each([
  ['/r/index.html', 'text/html; charset=utf-8'],
  ['/r/assets/index-B6kMthpG.js', 'text/javascript; charset=utf-8'],
  ['/r/assets/INDEX.CSS', 'text/css; charset=utf-8'],
  ['/r/assets/inter.woff2', 'font/woff2'],
  ['/r/assets/logo.svg', 'image/svg+xml'],
  ['/r/LICENSE', 'application/octet-stream'],
  ['/r/x.exe', 'application/octet-stream'],
])('%s is served as %s', (file, type) => {
  expect(contentTypeFor(file)).toBe(type);
});

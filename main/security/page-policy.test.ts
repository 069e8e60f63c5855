import { describe, expect, test } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN, trustedPageUrlCheck } from './app-protocol';
import {
  externalHttpsUrl,
  isNavigationAllowed,
  isPermissionGranted,
  windowOpenDecision,
} from './page-policy';

describe('links out of the app', () => {
  test.each([
    ['https://example.com/a?b=c#d', 'https://example.com/a?b=c#d'],
    ['HTTPS://Example.COM', 'https://example.com/'],
    ['http://example.com/', null],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['smb://server/share', null],
    ['ms-settings:privacy', null],
    ['https://user:secret@example.com/', null],
    ['not a url', null],
    ['', null],
  ])('%s opens as %s', (url, expected) => {
    expect(externalHttpsUrl(url)).toBe(expected);
  });

  test('window.open is always denied; a clicked https link goes to the browser', () => {
    expect(windowOpenDecision({ url: 'https://example.com/', disposition: 'foreground-tab' })).toEqual({
      action: 'deny',
      openExternally: 'https://example.com/',
    });
    expect(
      windowOpenDecision({ url: 'https://example.com/', disposition: 'background-tab' }).openExternally,
    ).toBe('https://example.com/');
  });

  test.each([
    ['a scripted popup', 'https://example.com/', 'new-window'],
    ['an unknown way of opening', 'https://example.com/', 'other'],
    ['a clicked http link', 'http://example.com/', 'foreground-tab'],
    ['a clicked file link', 'file:///C:/Windows/system32/calc.exe', 'foreground-tab'],
  ])('window.open of %s opens nothing', (_case, url, disposition) => {
    expect(windowOpenDecision({ url, disposition })).toEqual({ action: 'deny', openExternally: null });
  });
});

describe('navigation', () => {
  const isOurs = trustedPageUrlCheck([APP_ORIGIN]);
  test.each([
    [APP_ENTRY_URL, true],
    [`${APP_ORIGIN}/index.html#/tasks`, true],
    ['https://example.com/', false],
    ['app://other-host/index.html', false],
    ['file:///work/main/out/renderer/index.html', false],
    ['data:text/html,<script>alert(1)</script>', false],
    ['about:blank', false],
  ])('to %s allowed: %s', (url, allowed) => {
    expect(isNavigationAllowed(url, isOurs)).toBe(allowed);
  });
});

test.each([
  'media',
  'notifications',
  'geolocation',
  'clipboard-read',
  'clipboard-sanitized-write',
  'openExternal',
  'fullscreen',
  'hid',
  'serial',
  'usb',
  'unknown',
])('the page is denied the %s permission', (permission) => {
  expect(isPermissionGranted(permission)).toBe(false);
});

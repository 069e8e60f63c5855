import { describe, expect, test } from 'vitest';
import { APP_ENTRY_URL, APP_ORIGIN, trustedPageUrlCheck } from './app-protocol';
import {
  isNavigationAllowed,
  isPermissionGranted,
  openableLink,
  originsOf,
  windowOpenDecision,
} from './page-policy';

describe('links out of the app', () => {
  const signedIn = ['https://svc.example', 'http://127.0.0.1:4010'];

  test.each([
    ['https://svc.example/t/tsk_1?b=c#d', 'https://svc.example/t/tsk_1?b=c#d'],
    ['HTTPS://SVC.example', 'https://svc.example/'],
    ['http://127.0.0.1:4010/oauth/authorize', 'http://127.0.0.1:4010/oauth/authorize'],
    // Any other site, however it is written, is not opened: a teammate's text can carry any link.
    ['https://example.com/', null],
    ['https://svc.example.evil.test/', null],
    ['https://svc.example:8443/', null],
    ['http://svc.example/', null],
    ['http://127.0.0.1:4011/', null],
    ['file:///etc/passwd', null],
    ['javascript:alert(1)', null],
    ['smb://server/share', null],
    ['ms-settings:privacy', null],
    ['https://user:secret@svc.example/', null],
    ['not a url', null],
    ['', null],
  ])('%s opens as %s', (url, expected) => {
    expect(openableLink(url, signedIn)).toBe(expected);
  });

  test('nothing opens while nobody is signed in', () => {
    expect(openableLink('https://svc.example/', [])).toBeNull();
  });

  test("a server's origin is read from its addresses; what is not an address is left out", () => {
    expect(
      originsOf([
        'https://svc.example/api/v1',
        'https://auth.svc.example/',
        'https://svc.example',
        'nonsense',
      ]),
    ).toEqual(['https://svc.example', 'https://auth.svc.example']);
  });

  test('window.open is always denied; a clicked link to a signed-in server goes to the browser', () => {
    expect(
      windowOpenDecision({ url: 'https://svc.example/', disposition: 'foreground-tab' }, signedIn),
    ).toEqual({
      action: 'deny',
      openExternally: 'https://svc.example/',
    });
    expect(
      windowOpenDecision({ url: 'https://svc.example/', disposition: 'background-tab' }, signedIn)
        .openExternally,
    ).toBe('https://svc.example/');
  });

  test.each([
    ['a scripted popup', 'https://svc.example/', 'new-window'],
    ['an unknown way of opening', 'https://svc.example/', 'other'],
    ['a clicked link to another site', 'https://example.com/', 'foreground-tab'],
    ['a clicked file link', 'file:///C:/Windows/system32/calc.exe', 'foreground-tab'],
  ])('window.open of %s opens nothing', (_case, url, disposition) => {
    expect(windowOpenDecision({ url, disposition }, signedIn)).toEqual({
      action: 'deny',
      openExternally: null,
    });
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

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  APP_CSP_DIRECTIVES,
  DEV_CSP_DIRECTIVES,
  parseCsp,
  serializeCsp,
  withContentSecurityPolicy,
} from './content-security-policy';
import { withCspMeta } from './csp-meta-plugin';

const appPolicy = parseCsp(serializeCsp(APP_CSP_DIRECTIVES));

describe('the packaged app policy', () => {
  test('runs only our own scripts: no eval, no inline script, no remote origin', () => {
    expect(appPolicy['script-src']).toEqual(["'self'"]);
    expect(appPolicy['default-src']).toEqual(["'self'"]);
    const everySource = Object.values(appPolicy).flat();
    for (const forbidden of [
      "'unsafe-eval'",
      "'unsafe-inline'",
      "'wasm-unsafe-eval'",
      '*',
      'http:',
      'https:',
      'blob:',
    ]) {
      expect(everySource).not.toContain(forbidden);
    }
  });

  test('allows no plugins, no <base>, no form posts and no framing', () => {
    expect(appPolicy['object-src']).toEqual(["'none'"]);
    expect(appPolicy['base-uri']).toEqual(["'none'"]);
    expect(appPolicy['form-action']).toEqual(["'none'"]);
    expect(appPolicy['frame-ancestors']).toEqual(["'none'"]);
  });

  test('differs from the dev server policy only in the inline style and script Vite’s dev server injects', () => {
    const devPolicy = parseCsp(serializeCsp(DEV_CSP_DIRECTIVES));
    expect(devPolicy['style-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect(devPolicy['script-src']).toEqual(["'self'", "'unsafe-inline'"]);
    expect({ ...devPolicy, 'style-src': ["'self'"], 'script-src': ["'self'"] }).toEqual(appPolicy);
  });
});

describe('the <meta> policy of renderer/index.html', () => {
  const html = readFileSync(resolve(import.meta.dirname, '../../renderer/index.html'), 'utf8');
  const metaPolicy = (page: string) =>
    parseCsp(/<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/i.exec(page)?.[1] ?? '');

  test('is the packaged policy in the source and in a build', () => {
    expect(metaPolicy(html)).toEqual(appPolicy);
    expect(metaPolicy(withCspMeta(html, 'build'))).toEqual(appPolicy);
  });

  test('is the dev policy only under the dev server', () => {
    expect(metaPolicy(withCspMeta(html, 'serve'))).toEqual(parseCsp(serializeCsp(DEV_CSP_DIRECTIVES)));
  });

  test('a page without the <meta> is refused rather than served without it', () => {
    expect(() => withCspMeta('<html><head></head></html>', 'build')).toThrow(/no Content-Security-Policy/);
  });
});

describe('the CSP response header', () => {
  test('replaces any policy the response carried, whatever the header case', () => {
    const headers = withContentSecurityPolicy(
      {
        'content-security-policy': ['script-src *'],
        'Content-Type': ['text/html'],
        'x-content-type-options': 'no',
      },
      "default-src 'self'",
    );
    expect(headers).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ["default-src 'self'"],
      'X-Content-Type-Options': ['nosniff'],
    });
  });

  test('is added to a response without headers', () => {
    expect(withContentSecurityPolicy(undefined, "default-src 'none'")['Content-Security-Policy']).toEqual([
      "default-src 'none'",
    ]);
  });
});

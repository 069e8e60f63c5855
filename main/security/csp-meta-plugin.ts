// A Vite plugin for the renderer: writes our policy into index.html's CSP
// <meta>, the packaged one in a build and the dev one under the dev server
// (why they differ: ./content-security-policy.ts). The header main sends
// carries the same policy; the <meta> keeps a page opened any other way safe.
import type { Plugin } from 'vite';
import { APP_CSP_DIRECTIVES, DEV_CSP_DIRECTIVES, serializeCsp } from './content-security-policy';

const CSP_META = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/i;

/** index.html with its CSP <meta> set to the policy for `mode`; throws when the page has none. */
export function withCspMeta(html: string, mode: 'build' | 'serve'): string {
  if (!CSP_META.test(html)) throw new Error('renderer/index.html has no Content-Security-Policy <meta>');
  const policy = serializeCsp(mode === 'serve' ? DEV_CSP_DIRECTIVES : APP_CSP_DIRECTIVES);
  return html.replace(CSP_META, `$1${policy}$2`);
}

export function cspMetaPlugin(): Plugin {
  let mode: 'build' | 'serve' = 'build';
  return {
    name: 'svc-csp-meta',
    configResolved(config) {
      mode = config.command;
    },
    transformIndexHtml: {
      order: 'pre',
      handler: (html) => withCspMeta(html, mode),
    },
  };
}

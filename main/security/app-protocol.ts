// Our pages are served from app://svc-desktop/ rather than file://: an origin of
// their own that the IPC gate can trust, responses that can carry the CSP as a
// header (file:// responses have no headers), and file:// privileges not needed.
import { resolve, sep } from 'node:path';
import { parsedUrl } from './parsed-url';

export const APP_SCHEME = 'app';
export const APP_HOST = 'svc-desktop';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

/**
 * For `protocol.registerSchemesAsPrivileged`: standard (so relative URLs and
 * 'self' work), secure (a secure context, like https), fetch for module
 * scripts, and V8's code cache for a faster start. No CORS bypass, no service workers.
 */
export const APP_SCHEME_PRIVILEGES = {
  standard: true,
  secure: true,
  supportFetchAPI: true,
  codeCache: true,
} as const;

/** `scheme://host[:port]` of a URL, or null. (`URL.origin` is "null" for custom schemes, so it is built by hand.) */
export function pageOrigin(url: string): string | null {
  const parsed = parsedUrl(url);
  return parsed === null || parsed.host === '' ? null : `${parsed.protocol}//${parsed.host}`;
}

/** A check for "is this URL one of our pages", for the IPC gate and the CSP header. */
export function trustedPageUrlCheck(trustedOrigins: readonly string[]): (url: string) => boolean {
  const origins = new Set(trustedOrigins);
  return (url) => {
    const origin = pageOrigin(url);
    return origin !== null && origins.has(origin);
  };
}

/**
 * The file under `rootDir` that an app:// request asks for, or null when the
 * URL is not ours or would leave `rootDir` (`..` that the URL parser did not
 * already fold away, encoded slashes or backslashes, NUL). `/` is the entry page. Query and fragment are ignored.
 */
export function resolveAppFile(requestUrl: string, rootDir: string): string | null {
  const url = parsedUrl(requestUrl);
  if (url === null) return null;
  // Chromium hands us canonical URLs; Node's parser keeps a custom scheme's host as written, hence the lowercasing.
  if (url.protocol !== `${APP_SCHEME}:` || url.host.toLowerCase() !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\')) return null;
  if (path.split('/').some((segment) => segment === '..')) return null;
  if (path === '') path = '/';
  if (path.endsWith('/')) path += 'index.html';
  const root = resolve(rootDir);
  const file = resolve(root, `.${path}`);
  return file.startsWith(root + sep) ? file : null;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

/** The Content-Type of a file we serve; module scripts load only with a JavaScript type (and `nosniff`). */
export function contentTypeFor(filePath: string): string {
  const dot = filePath.lastIndexOf('.');
  const extension = dot === -1 ? '' : filePath.slice(dot).toLowerCase();
  return CONTENT_TYPES[extension] ?? 'application/octet-stream';
}

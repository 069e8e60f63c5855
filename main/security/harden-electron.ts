// Applies the tested policies (./page-policy, ./content-security-policy,
// ./app-protocol) to Electron: the app:// protocol, the session, and every
// webContents that is ever created. Wiring only; the decisions live there.
import { readFile } from 'node:fs/promises';
import { protocol, shell, type Session, type WebContents } from 'electron';
import { APP_SCHEME, APP_SCHEME_PRIVILEGES, contentTypeFor, resolveAppFile } from './app-protocol';
import { withContentSecurityPolicy } from './content-security-policy';
import { isNavigationAllowed, isPermissionGranted, windowOpenDecision } from './page-policy';

export interface PagePolicyOptions {
  readonly isTrustedPageUrl: (url: string) => boolean;
  /** The serialized Content-Security-Policy of our pages. */
  readonly contentSecurityPolicy: string;
}

/** Serves the built renderer from `rendererRoot` as app://svc-desktop/, with the CSP header on every response. */
export function serveAppProtocol(
  session: Session,
  rendererRoot: string,
  contentSecurityPolicy: string,
): void {
  session.protocol.handle(APP_SCHEME, async (request) => {
    const file = resolveAppFile(request.url, rendererRoot);
    const headers = withContentSecurityPolicy({}, contentSecurityPolicy);
    if (file === null) return new Response('Not found', { status: 404, headers: flatten(headers) });
    try {
      const body = await readFile(file);
      return new Response(body, {
        status: 200,
        headers: { ...flatten(headers), 'Content-Type': contentTypeFor(file) },
      });
    } catch {
      return new Response('Not found', { status: 404, headers: flatten(headers) });
    }
  });
}

/** Permissions refused, and the CSP header added to our pages wherever they come from (dev server included). */
export function hardenSession(session: Session, options: PagePolicyOptions): void {
  session.setPermissionRequestHandler((_webContents, permission, callback) =>
    callback(isPermissionGranted(permission)),
  );
  session.setPermissionCheckHandler((_webContents, permission) => isPermissionGranted(permission));
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!options.isTrustedPageUrl(details.url)) return callback({});
    callback({
      responseHeaders: withContentSecurityPolicy(details.responseHeaders, options.contentSecurityPolicy),
    });
  });
}

/**
 * For `app.on('web-contents-created')`: no navigation away, no new windows, no
 * <webview>; a link followed opens in the browser only to `linkOrigins()` (page-policy openableLink).
 */
export function hardenWebContents(
  contents: WebContents,
  options: PagePolicyOptions,
  linkOrigins: () => readonly string[],
): void {
  contents.on('will-navigate', (event) => {
    if (!isNavigationAllowed(event.url, options.isTrustedPageUrl)) event.preventDefault();
  });
  contents.on('will-frame-navigate', (event) => {
    if (!isNavigationAllowed(event.url, options.isTrustedPageUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler((details) => {
    const decision = windowOpenDecision(details, linkOrigins());
    if (decision.openExternally !== null) void shell.openExternal(decision.openExternally);
    return { action: decision.action };
  });
}

/** Registers app:// as a standard, secure scheme; must run before the app is ready. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { ...APP_SCHEME_PRIVILEGES } }]);
}

function flatten(headers: Record<string, string[]>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, values]) => [name, values.join(', ')]));
}

// The end-to-end host: the app without Electron. A Node HTTP server on
// 127.0.0.1 serves the BUILT renderer (out/renderer) with the CSP header main
// sends, plus a bridge shim that gives the page `window.svc` over fetch and
// EventSource. Behind it run the same IPC gate (sender check, validation,
// envelope) and main's own services (main/desktop-services.ts: every handler,
// the real accounts, sync engines and mirrors, notifications, the demo), with
// the emulator as the server. Only the Electron runtime is faked.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { tmpdir } from 'node:os';
import { join, resolve, sep } from 'node:path';
import {
  createIpcGate,
  type InvokeEventLike,
  type IpcGate,
  type IpcMainLike,
  type WebContentsLike,
} from '../../../main/ipc/gate';
import { createDesktopServices, type DesktopServices } from '../../../main/desktop-services';
import { LoopbackHostGuard, loopbackHosts } from '../../../emulator/loopback-host-guard';
import { startDemoServer } from '../../../main/ipc/demo-server';
import type { AccountVisibility } from '../../../main/notifications/account-visibility';
import type { DesktopNotification } from '../../../services/notify/notification-decisions';
import { EVENT_TRANSPORT_CHANNEL, INVOKE_TRANSPORT_CHANNEL } from '../../../ipc/transport';
import { contentTypeFor } from '../../../main/security/app-protocol';
import { APP_CSP_DIRECTIVES, serializeCsp } from '../../../main/security/content-security-policy';
import { withEncryptionReport } from '../../../sync/accounts/account-secrets';
import type { ApiClientOptions } from '../../../sync/api/api-client';
import { MemorySecretStore, type SecretStore } from '../../../sync/auth/secret-store';
import { type RunningEmulator, startEmulator } from '../../../emulator/start';
import {
  BRIDGE_SHIM_PATH,
  bridgeShimSource,
  EVENTS_PATH,
  INVOKE_PATH,
  MAIN_TIMING,
  reviveBytes,
} from './bridge-shim';

// SVC_E2E_RENDERER_DIR: a renderer built elsewhere (`electron-vite build --outDir <dir>`), so that
// engineers building at the same time on one machine do not test each other's half-written builds.
export const RENDERER_DIR =
  process.env.SVC_E2E_RENDERER_DIR ?? resolve(import.meta.dirname, '../../../out/renderer');

export interface E2eHostOptions {
  /** The server the app talks to; default: an emulator started (and stopped) by the host. */
  emulator?: RunningEmulator;
  /**
   * The address the app is given for the service (sign-in defaults); default
   * the emulator's own. Tests put an unpluggable proxy here.
   */
  serverUrl?: string;
  /** Tasks seeded in an emulator the host starts (default 300). */
  seedTasks?: number;
  /** Where the built renderer is (default out/renderer). */
  rendererDir?: string;
  /** The app's data directory (accounts, mirrors, settings); default a fresh temp dir, removed on close. */
  dataDir?: string;
  /** Port to listen on (default: any free one). */
  port?: number;
  /**
   * "Open this in the browser" (OAuth consent page). Default: remember it, so
   * a test can take it with `nextOpenedUrl()` and open it in its own browser.
   */
  openUrl?: (url: string) => void | Promise<void>;
  /** API client settings for every account (tests shorten retries). */
  client?: Partial<Omit<ApiClientOptions, 'baseUrl' | 'credentials' | 'dispatcher'>>;
  /** Tasks seeded in the emulator "Try the demo" starts (default 2000). */
  demoSeedTasks?: number;
  /** The person's answer to main's "keep sign-ins without a keychain?" dialog (default: keep). */
  keepWithoutKeychain?: boolean;
  /**
   * Told the page's address once it is served, before main's services start;
   * they start when it resolves. As in Electron, the window opens before the
   * accounts do (an older app's mirror may take seconds to upgrade) and its
   * calls wait at the gate: a test opens the page here to see what it shows meanwhile.
   */
  beforeServices?: (url: string) => Promise<void>;
  /**
   * The OS keychain, played by one store for several hosts (it outlives the
   * app): sign-ins are kept there as protected. Default: a machine without a
   * keychain (a store in memory, the app asks whether to keep sign-ins
   * unprotected), so a host started again asks to sign in again.
   */
  keychain?: SecretStore;
}

export interface E2eHost {
  /** The app's page: `http://127.0.0.1:PORT/`. */
  readonly url: string;
  readonly emulator: RunningEmulator;
  readonly accounts: DesktopServices['accounts'];
  readonly gate: IpcGate;
  /** Sync made visible (pause, tray model, a notification's click). */
  readonly visibility: AccountVisibility;
  /** Desktop notifications the app decided to show, oldest first. */
  readonly notifications: readonly DesktopNotification[];
  /** What "copy diagnostics" put on the clipboard, oldest first. */
  readonly clipboard: readonly string[];
  /** Waits for the next URL the app asked to open in the browser. */
  /** How many times main asked the person whether to keep sign-ins without a keychain. */
  keychainQuestions(): number;
  /** What the person picks in main's next file picker (attachments); none picked after it. */
  pickFilesNext(paths: readonly string[]): void;
  /** Files main handed to the system's default app, oldest first. */
  readonly openedFiles: readonly string[];
  nextOpenedUrl(timeoutMs?: number): Promise<string>;
  /** The OS opened the app with this link (open-url, a second instance's argv): what main does with it. */
  openLink(raw: string): ReturnType<DesktopServices['openLink']>;
  close(): Promise<void>;
}

/** The gate's view of an HTTP call: a top frame whose URL is the page that sent it (its Origin). */
function invokeEvent(request: IncomingMessage): InvokeEventLike {
  const origin = request.headers.origin;
  return {
    sender: { id: 1 },
    senderFrame: typeof origin === 'string' ? { url: `${origin}/`, parent: null } : null,
  };
}

async function readBody(request: IncomingMessage, limit = 8 * 1024 * 1024): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > limit) throw new Error('request body too large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The built file a path asks for, or null when it would leave the renderer folder. */
function rendererFile(rootDir: string, pathname: string): string | null {
  let path: string;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    return null;
  }
  if (path.includes('\0') || path.includes('\\') || path.split('/').includes('..')) return null;
  if (path.endsWith('/')) path += 'index.html';
  const root = resolve(rootDir);
  const file = resolve(root, `.${path}`);
  return file.startsWith(root + sep) ? file : null;
}

export async function startE2eHost(options: E2eHostOptions = {}): Promise<E2eHost> {
  const rendererDir = options.rendererDir ?? RENDERER_DIR;
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`${rendererDir}/index.html is missing: run \`npm run build\` first`);
  }
  const ownEmulator = options.emulator === undefined;
  const emulator = options.emulator ?? (await startEmulator({ seedTasks: options.seedTasks ?? 300 }));
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), 'svc-e2e-')));
  const contentSecurityPolicy = serializeCsp(APP_CSP_DIRECTIVES);
  const shim = bridgeShimSource();

  // The Electron side, faked: one "window" whose events go to every open event stream.
  const streams = new Set<ServerResponse>();
  const webContents: WebContentsLike = {
    id: 1,
    isDestroyed: () => false,
    send: (channel, message) => {
      if (channel !== EVENT_TRANSPORT_CHANNEL) return;
      const frame = `data: ${JSON.stringify(message)}\n\n`;
      for (const stream of streams) stream.write(frame);
    },
    once: () => undefined,
  };
  let answerInvoke: ((event: InvokeEventLike, request: unknown) => Promise<unknown>) | null = null;
  const ipcMain: IpcMainLike = {
    handle: (channel, listener) => {
      if (channel === INVOKE_TRANSPORT_CHANNEL) answerInvoke = listener;
    },
    removeHandler: (channel) => {
      if (channel === INVOKE_TRANSPORT_CHANNEL) answerInvoke = null;
    },
  };

  let pageOrigin = '';
  // As main/index.ts: the page is served before the services start, and its calls wait for them.
  let servicesSettled!: () => void;
  const gate = createIpcGate({
    ipcMain,
    isTrustedPageUrl: (url) => pageOrigin !== '' && (url === pageOrigin || url.startsWith(`${pageOrigin}/`)),
    onInternalError: (channel, error) => {
      console.error(`e2e host: ${channel} failed:`, error);
    },
    startup: new Promise<void>((settle) => (servicesSettled = settle)),
  });
  gate.trust(webContents);

  const opened: string[] = [];
  const openWaiters: ((url: string) => void)[] = [];
  const openUrl =
    options.openUrl ??
    ((url: string) => {
      const waiter = openWaiters.shift();
      if (waiter) waiter(url);
      else opened.push(url);
    });

  const notifications: DesktopNotification[] = [];
  const keychainQuestions = { count: 0 };
  const clipboard: string[] = [];
  let nextPicked: string[] = [];
  const openedFiles: string[] = [];

  const securityHeaders = {
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
  };

  async function serve(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://host.invalid');
    if (request.method === 'POST' && url.pathname === INVOKE_PATH) {
      let parsed: unknown;
      try {
        // A dropped file's bytes (25 MB at most, a third more as base64) come back as the Uint8Array Electron would pass.
        parsed = JSON.parse(await readBody(request, 40 * 1024 * 1024), reviveBytes) as unknown;
      } catch {
        response.writeHead(400).end();
        return;
      }
      const listener = answerInvoke;
      const started = performance.now();
      const answer = listener
        ? await listener(invokeEvent(request), parsed)
        : { ok: false, error: { type: 'unavailable', message: 'closing' } };
      const body = JSON.stringify(answer);
      // How long main took, for the browser's network log (and the ui benchmark's breakdown).
      const serverTiming = `${MAIN_TIMING};dur=${(performance.now() - started).toFixed(1)}`;
      response.writeHead(200, {
        'Content-Type': 'application/json',
        'Cache-Control': 'no-store',
        'Server-Timing': serverTiming,
      });
      response.end(body);
      return;
    }
    if (request.method === 'GET' && url.pathname === EVENTS_PATH) {
      response.writeHead(200, {
        'Content-Type': 'text/event-stream',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
      });
      response.write(': connected\n\n');
      streams.add(response);
      request.on('close', () => streams.delete(response));
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405).end();
      return;
    }
    if (url.pathname === BRIDGE_SHIM_PATH) {
      response.writeHead(200, { ...securityHeaders, 'Content-Type': 'text/javascript; charset=utf-8' });
      response.end(shim);
      return;
    }
    const file = rendererFile(rendererDir, url.pathname);
    if (file === null || !existsSync(file)) {
      response.writeHead(404, securityHeaders).end();
      return;
    }
    let body: Buffer | string = await readFile(file);
    if (file.endsWith(`${sep}index.html`)) {
      // The shim first, deferred: deferred scripts and module scripts run in the order named once
      // the page is parsed, so it still runs before the app's module, but no longer holds the parser,
      // and with it the fetch of the app's scripts, while it loads (10-20 ms before the first rows
      // that Electron's preload, run with no fetch, never costs the app).
      const tag = `<script defer src="${BRIDGE_SHIM_PATH}"></script>`;
      const html = body.toString('utf8');
      const at = html.indexOf('<script');
      body =
        at === -1
          ? html.replace('</head>', `${tag}</head>`)
          : `${html.slice(0, at)}${tag}\n    ${html.slice(at)}`;
    }
    response.writeHead(200, { ...securityHeaders, 'Content-Type': contentTypeFor(file) });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  // Only requests for this address, from its own page: a web page's DNS rebinding reaches nothing here.
  const hostGuard = new LoopbackHostGuard();
  const server: Server = createServer((request, response) => {
    const refusal = hostGuard.refusal(request.headers.host, request.headers.origin);
    if (refusal !== null) {
      response.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      response.end(refusal);
      return;
    }
    serve(request, response).catch((error: unknown) => {
      console.error('e2e host: request failed:', error);
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.port ?? 0, '127.0.0.1', () => ready());
  });
  const { port } = server.address() as AddressInfo;
  hostGuard.allow(...loopbackHosts(port));
  pageOrigin = `http://127.0.0.1:${port}`;

  // Main's own services (desktop-services.ts), with what only Electron does
  // played by recorders: notifications and clipboard writes are kept for the
  // tests, "open in the browser" goes to `nextOpenedUrl`, there is no tray.
  let services: DesktopServices;
  try {
    await options.beforeServices?.(`${pageOrigin}/`);
    services = await createDesktopServices({
      userDataDir: dataDir,
      secretStore:
        options.keychain !== undefined
          ? withEncryptionReport(options.keychain, true)
          : withEncryptionReport(new MemorySecretStore(), false),
      gate,
      appInfo: { name: 'svc-desktop', version: '0.0.0-e2e', platform: process.platform },
      arch: process.arch,
      shell: {
        openExternal: async (url) => {
          await openUrl(url);
        },
        applyTheme: () => undefined,
        showNotifications: (batch) => notifications.push(...batch),
        trayChanged: () => undefined,
        writeClipboard: (text) => clipboard.push(text),
        // Main's own dialog, which no page can answer: the host answers as the test says, and counts the questions.
        confirmKeepWithoutKeychain: () => {
          keychainQuestions.count += 1;
          return Promise.resolve(options.keepWithoutKeychain ?? true);
        },
        // Main's file picker and the default app, played by the test: the paths it gave, and a record of what was opened.
        pickFiles: () => {
          const paths = [...nextPicked];
          nextPicked = [];
          return Promise.resolve(paths);
        },
        openPath: (path) => {
          openedFiles.push(path);
          return Promise.resolve('');
        },
        showWindow: () => undefined,
        quit: () => undefined,
      },
      startDemo: () => startDemoServer(options.demoSeedTasks),
      env: {
        SVC_BASE_URL: options.serverUrl ?? emulator.baseUrl,
        SVC_AUTH_URL: options.serverUrl ?? emulator.authUrl,
        SVC_CLIENT_ID: emulator.clientId,
      },
      signInTimeoutMs: 120_000,
      ...(options.client ? { client: options.client } : {}),
    });
  } catch (error) {
    // Nothing it started outlives a failed start: a server left listening would hold the test run open.
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
    gate.close();
    if (ownEmulator) await emulator.stop();
    if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  servicesSettled();
  const { accounts, visibility } = services;

  return {
    url: `${pageOrigin}/`,
    emulator,
    accounts,
    gate,
    visibility,
    notifications,
    clipboard,
    keychainQuestions: () => keychainQuestions.count,
    pickFilesNext: (paths) => {
      nextPicked = [...paths];
    },
    openedFiles,
    nextOpenedUrl(timeoutMs = 30_000) {
      const ready = opened.shift();
      if (ready !== undefined) return Promise.resolve(ready);
      return new Promise((resolveUrl, reject) => {
        const timer = setTimeout(() => reject(new Error('the app opened no URL')), timeoutMs);
        openWaiters.push((url) => {
          clearTimeout(timer);
          resolveUrl(url);
        });
      });
    },
    openLink: (raw) => services.openLink(raw),
    async close() {
      for (const stream of streams) stream.end();
      streams.clear();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await services.close();
      gate.close();
      if (ownEmulator) await emulator.stop();
      if (ownDataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

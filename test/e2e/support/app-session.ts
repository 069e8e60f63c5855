// What every end-to-end file starts before its tests and stops after them:
// an emulator behind a proxy a test can unplug, the e2e host running the
// app's services against it, Chromium, and the app opened in it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../emulator/start';
import { MemorySecretStore } from '../../../sync/auth/secret-store';
import { type E2eHost, type E2eHostOptions, startE2eHost } from '../host/e2e-host';
import { launchBrowser, type OpenedApp, openApp } from './app-browser';
import { startSwitchableProxy, type SwitchableProxy } from './switchable-proxy';

export interface AppSessionOptions {
  /** The emulator's options (seeded tasks, latency). */
  emulator?: EmulatorOptions;
  /** API client settings for every account (tests shorten retries). */
  client?: E2eHostOptions['client'];
  /** The machine has an OS keychain: sign-ins are kept protected and outlive a restart (default: none). */
  keychain?: boolean;
}

export interface AppSession {
  readonly emulator: RunningEmulator;
  /** The app's only way to the emulator: unplug it to take the app offline. */
  readonly proxy: SwitchableProxy;
  readonly host: E2eHost;
  readonly browser: Browser;
  readonly app: OpenedApp;
  /**
   * Quits the app and starts it again: the page and host go, a new host opens
   * the same data folder (its accounts and mirrors) and a new page; `host` and
   * `app` are the new ones after. Without a keychain (`keychain`) the host
   * keeps sign-ins in memory, so the new page may ask to sign in again
   * (signed-in-session.ts's restartSignedIn). The new page opens as soon as the
   * host serves it, before main's services start (as Electron's window does).
   */
  restart(steps?: RestartSteps): Promise<void>;
  /** Stops everything it started, the browser first. */
  close(): Promise<void>;
}

/** What a test does in a restart (AppSession.restart). */
export interface RestartSteps {
  /** Between the quit and the start: the data folder changed as a person's other app version would leave it. */
  whileQuit?: () => Promise<void>;
  /** The new page, watched while main's services start; the restart ends when both did. */
  whileStarting?: (app: OpenedApp) => Promise<void>;
}

/** Retries that give up on an unreachable server quickly: the tests are about what the person sees, not the backoff. */
export const QUICK_RETRY = { maxAttempts: 2, baseDelayMs: 20, maxDelayMs: 100 } as const;

export async function startAppSession(options: AppSessionOptions = {}): Promise<AppSession> {
  const started: { stop(): Promise<void> }[] = [];
  const stopAll = async () => {
    for (const part of started.splice(0).reverse()) await part.stop();
  };
  try {
    const emulator = await startEmulator(options.emulator ?? {});
    started.push(emulator);
    const proxy = await startSwitchableProxy(emulator.baseUrl);
    started.push({ stop: () => proxy.close() });
    // The session's own data folder, so that a restart opens it again.
    const dataDir = await mkdtemp(join(tmpdir(), 'svc-e2e-session-'));
    started.push({ stop: () => rm(dataDir, { recursive: true, force: true }) });
    // The machine's keychain, when it has one: its sign-ins outlive a restart.
    const keychain = options.keychain === true ? new MemorySecretStore() : undefined;
    const startHost = (beforeServices?: E2eHostOptions['beforeServices']) =>
      startE2eHost({
        emulator,
        serverUrl: proxy.url,
        dataDir,
        ...(keychain ? { keychain } : {}),
        ...(options.client ? { client: options.client } : {}),
        ...(beforeServices ? { beforeServices } : {}),
      });
    const [firstHost, browser] = await Promise.all([startHost(), launchBrowser()]);
    let host = firstHost;
    // The stops read the host and page of now: a restart replaces them.
    started.push({ stop: () => host.close() }, { stop: () => browser.close() });
    let app = await openApp(browser, host);
    started.push({ stop: () => app.context.close() });
    const restart = async ({ whileQuit, whileStarting }: RestartSteps = {}) => {
      await app.context.close();
      await host.close();
      await whileQuit?.();
      let watched: Promise<void> = Promise.resolve();
      host = await startHost(async (url) => {
        app = await openApp(browser, { url });
        // Watched while the services start; its failure is awaited below, not left unhandled.
        watched = whileStarting?.(app) ?? Promise.resolve();
        watched.catch(() => undefined);
      });
      await watched;
    };
    return {
      emulator,
      proxy,
      get host() {
        return host;
      },
      browser,
      get app() {
        return app;
      },
      restart,
      close: stopAll,
    };
  } catch (error) {
    // Nothing it started outlives a failed start (a server left listening would hold the test run open).
    await stopAll().catch(() => undefined);
    throw error;
  }
}

/**
 * For an end-to-end file: one session, started by `start` before the file's
 * tests and closed after them. Its parts are read through the returned object
 * once it started (in a test, or a hook registered after this call).
 * `waitTimeoutMs` bounds the page's waits, so that a wait that cannot end says
 * which element it waited for before the test's own time runs out.
 */
export function sessionPerFile(
  start: () => Promise<AppSession>,
  { waitTimeoutMs }: { waitTimeoutMs?: number } = {},
): AppSession {
  let session: AppSession | undefined;
  beforeAll(async () => {
    session = await start();
    if (waitTimeoutMs !== undefined) session.app.page.setDefaultTimeout(waitTimeoutMs);
  });
  afterAll(() => session?.close());
  const started = (): AppSession => {
    if (session === undefined)
      throw new Error('the session was read before it started (read it in a test or hook)');
    return session;
  };
  return {
    get emulator() {
      return started().emulator;
    },
    get proxy() {
      return started().proxy;
    },
    get host() {
      return started().host;
    },
    get browser() {
      return started().browser;
    },
    get app() {
      return started().app;
    },
    restart: (steps) => started().restart(steps),
    close: () => started().close(),
  };
}

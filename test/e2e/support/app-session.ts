// What every end-to-end file starts before its tests and stops after them:
// an emulator behind a proxy a test can unplug, the e2e host running the
// app's services against it, Chromium, and the app opened in it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../../emulator/start';
import { type E2eHost, type E2eHostOptions, startE2eHost } from '../host/e2e-host';
import { launchBrowser, type OpenedApp, openApp } from './app-browser';
import { startSwitchableProxy, type SwitchableProxy } from './switchable-proxy';

export interface AppSessionOptions {
  /** The emulator's options (seeded tasks, latency). */
  emulator?: EmulatorOptions;
  /** API client settings for every account (tests shorten retries). */
  client?: E2eHostOptions['client'];
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
   * `app` are the new ones after. The host keeps sign-ins in memory, so the
   * new page may ask to sign in again (signed-in-session.ts's restartSignedIn).
   */
  restart(): Promise<void>;
  /** Stops everything it started, the browser first. */
  close(): Promise<void>;
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
    const startHost = () =>
      startE2eHost({
        emulator,
        serverUrl: proxy.url,
        dataDir,
        ...(options.client ? { client: options.client } : {}),
      });
    const [firstHost, browser] = await Promise.all([startHost(), launchBrowser()]);
    let host = firstHost;
    // The stops read the host and page of now: a restart replaces them.
    started.push({ stop: () => host.close() }, { stop: () => browser.close() });
    let app = await openApp(browser, host);
    started.push({ stop: () => app.context.close() });
    const restart = async () => {
      await app.context.close();
      await host.close();
      host = await startHost();
      app = await openApp(browser, host);
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
    restart: () => started().restart(),
    close: () => started().close(),
  };
}

// The benchmark's browser, driven by a Playwright server in a process of its own.
// The end-to-end host runs main's handlers in the benchmark's process, as Electron's
// main process runs them; Playwright launched in that process handled every DevTools
// message of the page there too (each call the page makes to main comes with its
// network events), on main's event loop: in a CPU profile of the ui benchmark's typing
// (100 000 tasks), more of the process's time than main's handlers. An Electron main
// process has none of it. Connected to a server apart, the benchmark's process keeps
// only the calls it makes.
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { browserLaunchOptions } from '../e2e/support/app-browser';

/** The server's process: launches the browser, says where to connect, and closes it when its stdin ends. */
const SERVER = `
import { chromium } from 'playwright-core';
const server = await chromium.launchServer(JSON.parse(process.env.SVC_BENCH_BROWSER));
process.stdout.write(server.wsEndpoint() + '\\n');
process.stdin.resume();
process.stdin.on('end', () => void server.close().then(() => process.exit(0)));
`;

export interface BrowserApart {
  browser: Browser;
  /** The Playwright server's process: it ends once the browser is closed (or the connection lost). */
  server: ChildProcess;
}

/** The browser, its Playwright server in a child process; closing (or losing) the browser ends that process. */
export async function launchBrowserApart(): Promise<BrowserApart> {
  const server = spawn(process.execPath, ['--input-type=module', '-e', SERVER], {
    // Where playwright-core resolves from.
    cwd: resolve(import.meta.dirname, '../..'),
    env: { ...process.env, SVC_BENCH_BROWSER: JSON.stringify(browserLaunchOptions()) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const endpoint = await new Promise<string>((found, fail) => {
    const lines = createInterface({ input: server.stdout });
    lines.once('line', (line) => {
      lines.close();
      found(line.trim());
    });
    server.once('error', fail);
    server.once('exit', (code) =>
      fail(new Error(`the browser's server ended (exit ${code}) before it listened`)),
    );
  });
  const browser = await chromium.connect(endpoint);
  browser.on('disconnected', () => server.stdin.end());
  return { browser, server };
}

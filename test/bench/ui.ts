// `npm run bench -- ui [--tasks 100000 | --sizes N,N,...]`: the screens in Chromium with 100 000
// tasks mirrored. The emulator is seeded in a process of its own, the end-to-end
// host signs in to it and the real sync engine mirrors every task (the sync pass
// the engine starts on sign-in is waited for to its end); then the built renderer
// is opened and timed (in the page, with the page's own clock):
// - first_rows_ms: navigation start to the first task rows painted, in a fresh context once the
//   browser has gone quiet (quiet-browser.ts: not while Chromium loads its window's own pages);
//   first_rows_cpu_ms: the page's main thread CPU over that span (Chromium's trace, of openings
//   traced after the timed ones), first_rows_eval_cpu_ms the part that runs its scripts' modules;
// - keystroke_p95_ms: a search keystroke or a filter click to the updated list painted;
//   keystroke_main_p95_ms and keystroke_page_p95_ms: main's part of each (its time answering the
//   list's page calls the update waited on) and the rest (the page, and the calls' transport);
//   search_main_max_step_ms: main's longest step while the search is typed (this process's
//   event loop, which runs main's handlers; the browser's Playwright server runs apart,
//   browser-apart.ts); search_main_max_step_cpu_ms: the most CPU main's code used in one step,
//   search_main_max_step_waiting_ms: how long main waited for a core in its longest step
//   (main-steps.ts, Linux only: a step can outlast its code on two shared cores);
// - max_frame_ms: the longest frame while scrolling All tasks from top to bottom;
//   last_row_ms: from the scroll's end to the last row shown (null: not within 60 s);
// - heap_mb: the page's JS heap after the scroll (after a garbage collection);
// - bulk_rows_ms: everything a search matches selected (Ctrl/Cmd+A) and its status changed from
//   the bulk bar, to every row on screen showing it; bulk_main_max_step_ms: main's longest step then,
//   bulk_main_max_step_cpu_ms and bulk_main_max_step_waiting_ms as the search's.
// The last stdout line is one JSON object of figures. `--sizes 10000,100000,1000000`
// runs it once per size and prints a table of the figures by size (bench-sizes.ts).
import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { deferredBuild } from '../../db/tasks/deferred-indexes';
import { INVOKE_PATH, MAIN_TIMING } from '../e2e/host/bridge-shim';
import { RENDERER_DIR, startE2eHost } from '../e2e/host/e2e-host';
import { launchBrowserApart } from './browser-apart';
import { type MainSteps, watchMainSteps } from './main-steps';
import { PAGE_TRACE_CATEGORIES, type PageCpu, pageCpu } from './page-trace';
import { untilBrowserQuiet } from './quiet-browser';
import { runSizes } from './bench-sizes';
import { startEmulatorProcess } from './emulator-process';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '100000' },
    /** Pixels scrolled per frame (36 px a row). */
    step: { type: 'string', default: '3600' },
    /**
     * A folder that keeps the app's data (accounts and the mirror) between runs: the first run
     * with it mirrors the tasks there, a later one with the same --tasks signs in to the same
     * account (an emulator seeded alike, on the same port) and opens that mirror, skipping the
     * minutes a million tasks take to mirror.
     */
    'mirror-dir': { type: 'string' },
    /** Comma-separated task counts: a run each, and the table of figures by size. */
    sizes: { type: 'string' },
  },
});
if (values.sizes !== undefined) {
  await runSizes(
    fileURLToPath(import.meta.url),
    values.sizes,
    [
      'first_rows_ms',
      'keystroke_p95_ms',
      'keystroke_median_ms',
      'keystroke_main_p95_ms',
      'keystroke_page_p95_ms',
      'search_main_max_step_ms',
      'search_main_max_step_cpu_ms',
      'search_main_max_step_waiting_ms',
      'max_frame_ms',
      'heap_mb',
      'bulk_tasks',
      'bulk_rows_ms',
      'bulk_main_max_step_ms',
      'bulk_main_max_step_cpu_ms',
      'bulk_main_max_step_waiting_ms',
      'load_1m',
    ],
    { loadKey: 'load_1m' },
  );
  process.exit(0);
}
const taskCount = Number(values.tasks);
const scrollStep = Number(values.step);

/** Fresh openings of the page timed for first_rows_ms (the median is reported). */
const OPENINGS = 3;
const SETTLE_MS = 3000;

const round = (ms: number) => Math.round(ms * 10) / 10;
const roundOrNull = (ms: number | null) => (ms === null ? null : round(ms));
/** A watch of main's steps in the log: the longest step's parts, the most CPU in a step. */
function stepWords({ longest, mostCpuMs }: MainSteps): string {
  if (longest.cpuMs === null || longest.waitingMs === null || mostCpuMs === null) return 'no /proc here';
  const asleep = longest.ms - longest.cpuMs - longest.waitingMs;
  return `the longest by a 1 ms tick ${Math.round(longest.ms)}: CPU ${Math.round(longest.cpuMs)}, waiting for a core ${Math.round(longest.waitingMs)}, asleep ${Math.round(asleep)}; the most CPU in a step ${Math.round(mostCpuMs)}`;
}
function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}
const log = (line: string) => process.stderr.write(`${line}\n`);

if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
  log('building the renderer (npm run build)…');
  execSync('npx electron-vite build', { stdio: 'inherit' });
}

/**
 * Tells the benchmark the first rows' time from the page. Waiting for them with a locator or
 * waitForFunction made Playwright inject its own script into the page while it opened (parsed
 * and run on the page's thread: 20-40 ms before the first rows).
 */
const FIRST_ROWS_BINDING = '__benchFirstRowsPainted';

// In the page: timestamps of the first task row painted, and of each list update after a keystroke.
const PAGE_PROBES = `
  window.__bench = {};
  // The frame after a DOM change paints right after its animation callbacks: a task queued there runs once it is painted.
  const painted = (then) => requestAnimationFrame(() => setTimeout(() => then(performance.now()), 0));
  new MutationObserver((_, observer) => {
    if (document.querySelector('[role="row"][data-task-id]')) {
      observer.disconnect();
      painted((at) => window.${FIRST_ROWS_BINDING}(at));
    }
  }).observe(document, { childList: true, subtree: true });
`;

/**
 * Waits for a pass over the task list that completed after `signedInAt`: a kept mirror holds the
 * last run's completed pass, and the engine starts a full pass on sign-in, which at a million
 * tasks writes for minutes; the figures were taken while it wrote (an opening took 30-60 s).
 */
async function waitForFirstSync(
  host: Awaited<ReturnType<typeof startE2eHost>>,
  signedInAt: string,
): Promise<string> {
  for (;;) {
    const runtime = host.accounts.currentRuntime();
    const pass = runtime?.mirror.passes.state('tasks');
    if (
      runtime &&
      pass?.state === 'complete' &&
      pass.completedAt !== null &&
      pass.completedAt >= signedInAt &&
      runtime.mirror.tasks.total() >= taskCount
    ) {
      return runtime.mirror.file;
    }
    await new Promise((done) => setTimeout(done, 500));
  }
}

/**
 * A first load builds its sort indexes and word index after the pass, in
 * bounded background steps (db/tasks/deferred-indexes.ts), in whichever connection
 * finished it. Until then searches check every row. The figures are of the
 * app as a person reopening it finds it: wait for that build to end.
 */
async function waitForDeferredBuild(file: string): Promise<void> {
  for (;;) {
    const db = new Database(file, { readonly: true });
    try {
      if (deferredBuild(db) === null) return;
    } finally {
      db.close();
    }
    await new Promise((done) => setTimeout(done, 500));
  }
}

/** A keystroke's (or a click's) time to the list's rows painted, and main's part of it. */
interface TimedUpdate {
  ms: number;
  /**
   * Main's time answering the list's page calls the update waited on (their Server-Timing, as
   * the host timed each call's handler), summed: 0 when the page answered from what it held.
   */
  mainMs: number;
}

/** A keystroke's figures in the log: its milliseconds and main's part (`mi:72/30`). */
function timingWords(update: TimedUpdate): string {
  return `${Math.round(update.ms)}/${Math.round(update.mainMs)}`;
}

/** The resource name of a list page call: the bridge names each call by its channel (bridge-shim.ts). */
const PAGE_CALL = `${INVOKE_PATH}?${encodeURIComponent('tasks:query')}`;

/** Runs an action that changes the query; resolves with the time from it to the new rows painted, and main's part. */
async function timedUpdate(page: Page, act: () => Promise<void>): Promise<TimedUpdate> {
  await page.evaluate(`(() => {
    const grid = document.querySelector('[role="grid"]');
    // The calls this update makes, alone in the buffer (it holds 250 by default).
    performance.clearResourceTimings();
    window.__bench.pending = new Promise((resolve) => {
      let sawBusy = false;
      // Done when the list was busy and is no longer, or when its rows changed. A query the list
      // answers from what it holds (a Backspace back to one it read) is busy only between two
      // renders, whose records can come in one batch: a record of aria-busy (the one attribute
      // watched) says it was busy. Waiting to see it busy hung on such an answer whose rows were
      // those shown already ("a" back to nothing at 100 000 tasks: the same first rows).
      const observer = new MutationObserver((records) => {
        const busy = grid.getAttribute('aria-busy') === 'true';
        if (busy || records.some((record) => record.type === 'attributes')) sawBusy = true;
        if (busy) return;
        if (sawBusy || records.some((record) => record.type !== 'attributes')) {
          observer.disconnect();
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0));
        }
      });
      observer.observe(grid, {
        attributes: true,
        attributeFilter: ['aria-busy'],
        childList: true,
        characterData: true,
        subtree: true,
      });
      document.addEventListener('keydown', () => { window.__bench.start = performance.now(); }, { capture: true, once: true });
      document.addEventListener('pointerdown', () => { window.__bench.start = performance.now(); }, { capture: true, once: true });
    });
  })()`);
  await act();
  return page.evaluate<TimedUpdate>(`window.__bench.pending.then((end) => {
    const start = window.__bench.start;
    // Page calls answered between the key and the rows painted (a read-ahead answered later is not waited on).
    const calls = performance
      .getEntriesByType('resource')
      .filter((call) => call.name.endsWith(${JSON.stringify(PAGE_CALL)}) && call.startTime >= start && call.responseEnd <= end);
    const mainMs = calls.reduce(
      (sum, call) => sum + (call.serverTiming.find((timing) => timing.name === ${JSON.stringify(MAIN_TIMING)})?.duration ?? 0),
      0,
    );
    return { ms: end - start, mainMs };
  })`);
}

/**
 * With --mirror-dir: the data folder for this task count, and the emulator's port of the run that
 * made it (the account is found again by its server address), or 0 on a first run.
 */
function keptMirror(): { dataDir: string; port: number } | null {
  if (values['mirror-dir'] === undefined) return null;
  const dataDir = join(values['mirror-dir'], `ui-${taskCount}`);
  mkdirSync(dataDir, { recursive: true });
  const portFile = join(dataDir, 'emulator-port');
  return { dataDir, port: existsSync(portFile) ? Number(readFileSync(portFile, 'utf8')) : 0 };
}

const started = performance.now();
const kept = keptMirror();
log(
  kept?.port
    ? `seeding ${taskCount} tasks and opening the mirror kept in ${kept.dataDir}…`
    : `seeding ${taskCount} tasks and mirroring them through the sync engine…`,
);
// The emulator in a process of its own, as the service is to the app: at a million tasks, seeding
// it held this thread for two minutes, and its pages and its 1.3 GB heap's collections held main's
// handlers for seconds at a time while a sync pass read them (the page took 30-60 s to open).
const emulator = await startEmulatorProcess({ tasks: taskCount, port: kept?.port ?? 0 });
if (kept) writeFileSync(join(kept.dataDir, 'emulator-port'), new URL(emulator.base_url).port);
// The host's own emulator (300 tasks) goes unused: the app is given this one's address.
const host = await startE2eHost({
  serverUrl: emulator.base_url,
  ...(kept ? { dataDir: kept.dataDir } : {}),
});
const { browser } = await launchBrowserApart();
try {
  const signedInAt = new Date().toISOString();
  await host.accounts.signInWithToken({ token: emulator.tokens.live });
  const mirrorFile = await waitForFirstSync(host, signedInAt);
  log(`mirrored ${taskCount} tasks in ${Math.round((performance.now() - started) / 1000)} s`);
  const buildStarted = performance.now();
  await waitForDeferredBuild(mirrorFile);
  log(
    `indexes and word index built ${Math.round((performance.now() - buildStarted) / 1000)} s after the pass`,
  );

  // The engine finishes its first pass by building indexes: let it settle, as a person reopening the app finds it.
  await new Promise((done) => setTimeout(done, SETTLE_MS));

  // Opening the main screen (My tasks) to the first rows painted: a fresh page each time, the median kept.
  // Then as many more, traced (never timed: tracing costs time), for the page's own CPU until its first rows.
  const openings: number[] = [];
  const openingCpu: PageCpu[] = [];
  let context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
  let page = await context.newPage();
  for (let run = 0; run < OPENINGS * 2; run++) {
    if (run > 0) {
      await context.close();
      context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
      page = await context.newPage();
    }
    const traced = run >= OPENINGS;
    let painted: (at: number) => void = () => {};
    const firstRowsPainted = new Promise<number>((resolve, fail) => {
      painted = resolve;
      setTimeout(() => fail(new Error('no task rows painted within 60 s of opening')), 60_000).unref();
    });
    await context.exposeFunction(FIRST_ROWS_BINDING, (at: number) => painted(at));
    await context.addInitScript(PAGE_PROBES);
    // The new context's window loads Chromium's own pages first, on both cores; an Electron window has none.
    await untilBrowserQuiet(browser);
    if (traced) await browser.startTracing(page, { categories: PAGE_TRACE_CATEGORIES });
    await page.goto(host.url, { waitUntil: 'commit' });
    const firstRows = await firstRowsPainted;
    if (traced) openingCpu.push(pageCpu(await browser.stopTracing(), firstRows));
    else openings.push(firstRows);
  }

  // Keystrokes in the search, and filter clicks, over all 100 000 tasks.
  await page.getByRole('button', { name: 'All tasks' }).click();
  await page
    .getByTestId('list-count')
    .filter({ hasText: `${taskCount.toLocaleString('en-US')} tasks` })
    .waitFor();
  const keystrokes: TimedUpdate[] = [];
  const search = page.getByLabel('Search tasks');
  await search.focus();
  // Main's longest step while the search is typed (the host runs main's handlers in this process).
  const searchMainDelay = monitorEventLoopDelay({ resolution: 1 });
  searchMainDelay.enable();
  const searchMainSteps = watchMainSteps();
  const timings: string[] = [];
  for (const word of ['migrate', 'audit log', 'safari', 'unicode']) {
    // A space at the end changes no query (the search reads words, protocol/task-search.ts): the
    // list would not update and the wait would not end, so it is typed with the letter after it,
    // and taken off with the letter before it, timed from the first key.
    for (let i = 0; i < word.length; i++) {
      const keys = word.charAt(i) === ' ' ? word.slice(i, i + 2) : word.charAt(i);
      const update = await timedUpdate(page, async () => {
        for (const key of keys) await search.press(key);
      });
      i += keys.length - 1;
      keystrokes.push(update);
      timings.push(`${word.slice(0, i + 1)}:${timingWords(update)}`);
    }
    for (let i = word.length; i > 0; i--) {
      const presses = word.charAt(i - 2) === ' ' ? 2 : 1;
      const update = await timedUpdate(page, async () => {
        for (let n = 0; n < presses; n++) await search.press('Backspace');
      });
      i -= presses - 1;
      keystrokes.push(update);
      timings.push(`${word.slice(0, i - 1) || '(empty)'}:${timingWords(update)}`);
    }
  }
  searchMainDelay.disable();
  const searchSteps = searchMainSteps.stop();
  log(`keystrokes (term: ms/main's part): ${timings.join(' ')}`);
  log(
    `main's longest step while the search was typed: ${Math.round(searchMainDelay.max / 1e6)} ms (${stepWords(searchSteps)})`,
  );
  for (const status of ['Blocked', 'In progress', 'Blocked', 'In progress']) {
    const chip = page.getByRole('group', { name: 'Status' }).getByRole('button', { name: status });
    keystrokes.push(await timedUpdate(page, () => chip.click()));
  }

  // Scrolling All tasks from the top to the bottom, one step a frame (once the list knows its length).
  await page
    .getByTestId('list-count')
    .filter({ hasText: `${taskCount.toLocaleString('en-US')} tasks` })
    .waitFor();
  const maxFrameMs = await page.evaluate<number>(`new Promise((resolve) => {
    const body = document.querySelector('[data-testid="task-grid-scroll"]');
    body.scrollTop = 0;
    let last = null;
    let longest = 0;
    const frame = (now) => {
      if (last !== null) longest = Math.max(longest, now - last);
      last = now;
      if (body.scrollTop + body.clientHeight >= body.scrollHeight - 1) {
        resolve(longest);
        return;
      }
      body.scrollTop += ${scrollStep};
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })`);
  const lastRow = page.locator(`[role="row"][aria-rowindex="${taskCount + 1}"][data-task-id]`);
  // The scroll's end asks for the last pages (read from the order's end; past the browser's height
  // cap the grid scales its scroll onto the rows). Timed, and null when not shown within the
  // minute, so that the figures after it are still taken.
  const lastRowWait = performance.now();
  const lastRowMs = await lastRow.waitFor({ timeout: 60_000 }).then(
    () => performance.now() - lastRowWait,
    () => null,
  );
  if (lastRowMs === null) log('the last row was not shown within 60 s of the scroll reaching the bottom');

  const cdp = await context.newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };

  // A bulk change: everything a search matches selected with Ctrl/Cmd+A (the query, never its ids,
  // goes to main) and its status changed from the bar. Timed from the click on Apply to every row
  // on screen showing it (in the page's clock), and main's longest step meanwhile (the host runs
  // main's handlers, the sync engine that then pushes and Playwright's client in this process;
  // the emulator runs in its own).
  await search.fill('migrate');
  // The search's own count, not the whole list's, still shown while the search is counted.
  for (;;) {
    const label = (await page.getByTestId('list-count').textContent()) ?? '';
    if (/^[0-9,]+ tasks?$/.test(label) && label !== `${taskCount.toLocaleString('en-US')} tasks`) break;
    await new Promise((done) => setTimeout(done, 50));
  }
  const bulkCount = Number(((await page.getByTestId('list-count').textContent()) ?? '0').replace(/\D/g, ''));
  await page.getByTestId('task-grid').focus();
  await page.keyboard.press('Control+a');
  const bar = page.getByTestId('bulk-bar');
  await bar.getByLabel('Change').selectOption('status');
  await bar.getByLabel('New value').selectOption('completed');
  await page.evaluate(`(() => {
    window.__bench.bulk = new Promise((resolve) => {
      let start = null;
      document.addEventListener('pointerdown', () => { start = performance.now(); }, { capture: true, once: true });
      const check = () => {
        const pills = [...document.querySelectorAll('[role="row"][data-task-id] .status-pill')];
        if (start !== null && pills.length > 0 && pills.every((pill) => pill.classList.contains('status-completed')))
          requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - start), 0));
        else requestAnimationFrame(check);
      };
      requestAnimationFrame(check);
    });
  })()`);
  const mainDelay = monitorEventLoopDelay({ resolution: 1 });
  mainDelay.enable();
  const bulkMainSteps = watchMainSteps();
  await bar.getByRole('button', { name: 'Apply' }).click();
  const bulkRowsMs = await page.evaluate<number>('window.__bench.bulk');
  // Minutes at most: on a loaded machine the change's writes of 50 000 edits outlast Playwright's
  // 30 s default (at load 20, 35 129 of 49 968 were queued after 337 s), and the run dying here
  // left a kept mirror with the change half queued and printed none of its figures.
  await page.getByTestId('bulk-progress').filter({ hasText: /sent/ }).waitFor({ timeout: 900_000 });
  mainDelay.disable();
  const bulkSteps = bulkMainSteps.stop();
  if (kept) {
    // What the change has not sent is given up, as a person may (Stop): the kept mirror's next run
    // would otherwise push it first (at a million, 50 000 edits at the rate limit's pace, each a 412
    // against the re-seeded emulator) before the screens could be timed.
    const line = page.getByTestId('bulk-progress');
    const stopped = await line
      .getByRole('button', { name: 'Stop' })
      .click({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    // Stopping takes back what is queued and not sent: minutes under load (over 120 s at load 15).
    if (stopped) await line.getByRole('button', { name: 'Dismiss' }).waitFor({ timeout: 600_000 });
  }
  log(
    `bulk change: ${bulkCount} tasks matching "migrate" set to completed, rows show it after ${Math.round(bulkRowsMs)} ms; main's longest step ${Math.round(mainDelay.max / 1e6)} ms (${stepWords(bulkSteps)})`,
  );

  const keystrokeMs = keystrokes.map((update) => update.ms);
  const keystrokeMainMs = keystrokes.map((update) => update.mainMs);
  const figures = {
    tasks: taskCount,
    first_rows_ms: round(percentile(openings, 50)),
    first_rows_runs_ms: openings.map(round),
    first_rows_cpu_ms: round(
      percentile(
        openingCpu.map((cpu) => cpu.mainThreadMs),
        50,
      ),
    ),
    first_rows_eval_cpu_ms: round(
      percentile(
        openingCpu.map((cpu) => cpu.moduleEvaluationMs),
        50,
      ),
    ),
    keystroke_p95_ms: round(percentile(keystrokeMs, 95)),
    keystroke_median_ms: round(percentile(keystrokeMs, 50)),
    keystroke_main_p95_ms: round(percentile(keystrokeMainMs, 95)),
    keystroke_page_p95_ms: round(
      percentile(
        keystrokeMs.map((ms, i) => ms - (keystrokeMainMs[i] ?? 0)),
        95,
      ),
    ),
    keystrokes: keystrokes.length,
    search_main_max_step_ms: round(searchMainDelay.max / 1e6),
    search_main_max_step_cpu_ms: roundOrNull(searchSteps.mostCpuMs),
    search_main_max_step_waiting_ms: roundOrNull(searchSteps.longest.waitingMs),
    max_frame_ms: round(maxFrameMs),
    last_row_ms: lastRowMs === null ? null : round(lastRowMs),
    heap_mb: round(heap.usedSize / 1024 / 1024),
    bulk_tasks: bulkCount,
    bulk_rows_ms: round(bulkRowsMs),
    bulk_main_max_step_ms: round(mainDelay.max / 1e6),
    bulk_main_max_step_cpu_ms: roundOrNull(bulkSteps.mostCpuMs),
    bulk_main_max_step_waiting_ms: roundOrNull(bulkSteps.longest.waitingMs),
    targets: uiTargets(taskCount),
    /** The machine's 1-minute load average at the end (2 shared cores here): the figures move with it. */
    load_1m: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
  await context.close();
  console.log(JSON.stringify(figures));
} finally {
  await browser.close();
  await host.close();
  await emulator.stop();
}

/**
 * What a person should meet at this size (issue #28): two frames a keystroke
 * and first rows in 300 ms up to 100 000 tasks; at a million, 500 ms and
 * 50 ms a keystroke with main never held 50 ms. A frame stays 33 ms at every
 * size: it is a person's perception, not the data's.
 */
function uiTargets(taskCount: number) {
  const large = taskCount > 100_000;
  return {
    first_rows_ms: large ? 500 : 300,
    keystroke_p95_ms: large ? 50 : 33,
    max_frame_ms: 33,
    search_main_max_step_ms: 50,
    heap_mb: 150,
  };
}

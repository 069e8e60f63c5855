// The page's own CPU in a Chromium trace (playwright's browser.startTracing):
// on a shared machine wall time moves with the load, the page main thread's
// CPU (the trace's thread time) much less. Used by the ui benchmark.

/** The trace categories the figures below need. */
export const PAGE_TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  // navigationStart, where the page's clock starts.
  'blink.user_timing',
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { documentLoaderURL?: string } };
}

export interface PageCpu {
  /** The page's main thread CPU from its navigation to `untilMs` (the page's clock), in ms. */
  mainThreadMs: number;
  /** Of which its scripts' module evaluation (ES modules run at load), in ms. */
  moduleEvaluationMs: number;
}

const ms = (us: number) => Math.round(us / 100) / 10;

/**
 * The CPU of the page loaded from an http(s) address in `trace` (the last such
 * navigation), from its navigation start to `untilMs` of the page's own clock
 * (performance.now(), whose zero is that navigation start). Another renderer in
 * the trace (the browser's own pages) is not counted.
 */
export function pageCpu(trace: Buffer, untilMs: number): PageCpu {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
  const threadNames = new Map<string, string>();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name')
      threadNames.set(`${event.pid}:${event.tid}`, event.args?.name ?? '');
  }
  const navigation = events
    .filter(
      (event) =>
        event.name === 'navigationStart' &&
        threadNames.get(`${event.pid}:${event.tid}`) === 'CrRendererMain' &&
        (event.args?.data?.documentLoaderURL ?? '').startsWith('http'),
    )
    .at(-1);
  if (navigation === undefined) throw new Error('the trace has no navigation of the page');
  const until = navigation.ts + untilMs * 1000;
  const onPage = events.filter(
    (event) =>
      event.pid === navigation.pid &&
      event.tid === navigation.tid &&
      event.ph === 'X' &&
      event.ts >= navigation.ts &&
      event.ts <= until,
  );
  // The thread's top-level tasks: all it ran, each counted once.
  const sum = (name: string) =>
    onPage.filter((event) => event.name === name).reduce((total, event) => total + (event.tdur ?? 0), 0);
  return { mainThreadMs: ms(sum('RunTask')), moduleEvaluationMs: ms(sum('v8.evaluateModule')) };
}

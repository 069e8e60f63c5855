// `--sizes 10000,100000,1000000` of a benchmark: runs it once per size, each
// in a fresh process (a size's heap and page cache not the next one's), and
// prints a table of the figures by size on stderr, with how much each grew
// against the tasks, so that a figure growing faster than the tasks shows.
// The last stdout line stays one JSON object: the largest size's keys as a
// single run prints them, and `sizes` and `by_size` (each size's object) beside.
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';

type Figures = Record<string, unknown>;

/** One run of `script` at `tasks`, its stderr passed through; its last stdout line's object. */
function runOnce(script: string, tasks: number, args: readonly string[]): Promise<Figures> {
  return new Promise((resolve, reject) => {
    // The same Node and loader flags (tsx's) as this process, the same script, one size.
    const child = spawn(process.execPath, [...process.execArgv, script, '--tasks', String(tasks), ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const last = out.trim().split('\n').at(-1) ?? '';
      try {
        resolve(JSON.parse(last) as Figures);
      } catch {
        reject(new Error(`the run at ${tasks} tasks ended with ${code} and no JSON line: ${last}`));
      }
    });
  });
}

/** The table of `keys` by size: a row a figure, a column a size, then its growth over the tasks' growth. */
export function sizeTable(
  sizes: readonly number[],
  runs: readonly Figures[],
  keys: readonly string[],
): string {
  const first = sizes[0] as number;
  const last = sizes.at(-1) as number;
  const header = [
    'figure',
    ...sizes.map((n) => n.toLocaleString('en-US')),
    `growth ÷ tasks' (x${last / first})`,
  ];
  const rows = keys.map((key) => {
    const values = runs.map((run) => run[key]);
    const a = values[0];
    const b = values.at(-1);
    // How many times faster than the tasks the figure grew (1: linear; a time per step should stay near 1/(tasks' growth)).
    const growth =
      typeof a === 'number' && typeof b === 'number' && a > 0 ? (b / a / (last / first)).toFixed(2) : '';
    return [key, ...values.map((v) => (v === undefined ? '-' : JSON.stringify(v))), growth];
  });
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => row.map((cell, i) => cell.padStart(widths[i] as number)).join('  ');
  return [line(header), ...rows.map(line)].join('\n');
}

/** The task counts of `--sizes` (comma-separated), smallest first; each at least `least`. */
export function parseSizes(option: string, least = 1): number[] {
  const sizes = option.split(',').map(Number);
  if (sizes.length === 0 || sizes.some((n) => !Number.isInteger(n) || n < least))
    throw new Error(`--sizes ${option}: task counts of ${least} or more`);
  return sizes.sort((a, b) => a - b);
}

/**
 * The command line each size's run gets: `argv` (this run's options) without
 * `--sizes` and `--tasks` (with their values, `--x v` or `--x=v`), which each
 * run is given on its own.
 */
export function argsForEachSize(argv: readonly string[]): string[] {
  const args: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--sizes' || arg === '--tasks') i += 1;
    else if (!arg.startsWith('--sizes=') && !arg.startsWith('--tasks=')) args.push(arg);
  }
  return args;
}

export interface SizesOptions {
  /** The smallest task count the benchmark can run at (default 1). */
  least?: number;
  /** The key in which the benchmark reports the machine's load (default `load_avg`). */
  loadKey?: string;
}

/**
 * Runs `script` at each size of `sizesOption` (smallest first) with this
 * process's other options, prints the table of `keys` to stderr and the JSON
 * line to stdout.
 */
export async function runSizes(
  script: string,
  sizesOption: string,
  keys: readonly string[],
  options: SizesOptions = {},
): Promise<void> {
  const sorted = parseSizes(sizesOption, options.least);
  const args = argsForEachSize(process.argv.slice(2));
  const loadKey = options.loadKey ?? 'load_avg';
  const runs: Figures[] = [];
  for (const tasks of sorted) {
    console.error(`---- ${tasks} tasks (load ${loadavg()[0]?.toFixed(1)}) ----`);
    runs.push(await runOnce(script, tasks, args));
    // Each size's figures as soon as they are in: a later size's failure loses none of them.
    console.error(`figures at ${tasks} tasks: ${JSON.stringify(runs.at(-1))}`);
  }
  console.error(`\nby size (load at each run's end: ${runs.map((r) => String(r[loadKey])).join(', ')}):`);
  console.error(sizeTable(sorted, runs, keys));
  const bySize = Object.fromEntries(sorted.map((tasks, i) => [String(tasks), runs[i]]));
  console.log(JSON.stringify({ ...runs.at(-1), sizes: sorted, by_size: bySize }));
}

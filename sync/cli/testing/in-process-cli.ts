// The headless command run in-process the way its tests read it: what it wrote
// to stdout and stderr captured whole, and stdout's NDJSON records parsed.
import type { PushFixture } from '../../push/testing/push-fixture';
import type { CliIo } from '../cli-io';
import { runCli } from '../run-cli';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** The environment the command reads (none unless given). */
  env?: Record<string, string | undefined>;
  /** All of standard input; without it the command has none to read. */
  stdin?: string;
  /** Aborts the run (SIGINT as the command sees it). */
  signal?: AbortSignal;
  /** Sees each piece of stderr as it is written (a test answering a prompt). */
  onStderr?: (text: string) => void;
}

export async function runCliInProcess(
  argv: readonly string[],
  options: InProcessOptions = {},
): Promise<CliRun> {
  const { stdin, signal } = options;
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    stdout: (text) => (stdout += text),
    stderr: (text) => {
      stderr += text;
      options.onStderr?.(text);
    },
    env: options.env ?? {},
    ...(signal !== undefined ? { signal } : {}),
    ...(stdin !== undefined
      ? {
          readStdin: () => Promise.resolve(stdin),
          readLine: () => Promise.resolve(stdin.split('\n')[0] ?? null),
        }
      : {}),
  };
  const code = await runCli(argv, io);
  return { code, stdout, stderr };
}

/** The records of NDJSON output: every line `isRecord` keeps (by default every line not empty), parsed. */
export function ndjson(
  stdout: string,
  isRecord: (line: string) => boolean = (line) => line !== '',
): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter(isRecord)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** A run whose stdout is NDJSON, with its records as `lines` (see `ndjson`). */
export async function runCliForRecords(
  argv: readonly string[],
  options: InProcessOptions & { isRecord?: (line: string) => boolean } = {},
): Promise<CliRun & { lines: Record<string, unknown>[] }> {
  const run = await runCliInProcess(argv, options);
  return { ...run, lines: ndjson(run.stdout, options.isRecord) };
}

/** `--set` before each of `assignments` (`name=value`), as a write command takes them. */
export function sets(...assignments: string[]): string[] {
  return assignments.flatMap((assignment) => ['--set', assignment]);
}

/** One `sync` of the bench's mirror file with its emulator, on the live token. */
export function syncBench(f: PushFixture): ReturnType<typeof runCliForRecords> {
  return runCliForRecords([
    'sync',
    '--base-url',
    f.emulator.baseUrl,
    '--db',
    f.file,
    '--token',
    f.emulator.tokens.live,
  ]);
}

// Where the headless command writes and what it reads from its environment:
// the real process in main.ts, buffers in tests that run it in-process.
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: Readonly<Record<string, string | undefined>>;
  /** Aborted on SIGINT / SIGTERM (`sync --watch` stops on it). */
  signal?: AbortSignal;
  /** All of standard input as text (`--token-file -`); absent where there is none to read. */
  readStdin?: () => Promise<string>;
  /** One line of standard input (the answer to a question such as `edit --where`'s); null at its end. */
  readLine?: () => Promise<string | null>;
}

// Entry of the headless command (`npm run cli -- <command>`, and the package's
// bin): runs one subcommand on the real process, with SIGINT/SIGTERM ending
// `sync --watch` cleanly, and exits with the documented code.
import { createInterface } from 'node:readline';
import { EXIT } from './cli-usage';
import { runCli } from './run-cli';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal while stopping means "now".
    if (stop.signal.aborted) process.exit(130);
    stop.abort(new Error(`${signal} received`));
  });
}

// A reader that stopped reading (`export … | head -c 100`) closed our pipe: end
// quietly, as Unix tools do on SIGPIPE (which Node ignores, so the write fails
// with EPIPE instead), with the command's own exit code if it already ended, else 0.
// SQLite writes are synchronous, so none is cut off half-way.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : EXIT.ok);
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  signal: stop.signal,
  readStdin: async () => {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  },
  readLine: async () => {
    const lines = createInterface({ input: process.stdin, terminal: false });
    try {
      for await (const line of lines) return line;
      return null;
    } finally {
      lines.close();
    }
  },
});
process.exitCode = code;
// Nothing of ours should keep the process alive now (pools closed); signals listeners would not, but be sure.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');

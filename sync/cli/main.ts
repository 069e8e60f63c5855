// Entry of the headless command (`npm run cli -- <command>`, and the package's
// bin): runs one subcommand on the real process, with SIGINT/SIGTERM ending
// `sync --watch` cleanly, and exits with the documented code.
import { runCli } from './run-cli';

const stop = new AbortController();
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    // A second signal while stopping means "now".
    if (stop.signal.aborted) process.exit(130);
    stop.abort(new Error(`${signal} received`));
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
});
process.exitCode = code;
// Nothing of ours should keep the process alive now (pools closed); signals listeners would not, but be sure.
process.removeAllListeners('SIGINT');
process.removeAllListeners('SIGTERM');

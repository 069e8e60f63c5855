// `npm run emulator -- --port 4010 --seed 42 --seed-tasks 10000 [--latency-ms 50] [--host H] [--variance SEED]`
// Runs the emulator until SIGINT or SIGTERM. The first line on stdout is one
// JSON object with base_url, auth_url, client_id, org_id, admin_secret and
// tokens {live, test, peer}; tools read it to connect.
import { commandLine, usageError } from './command-line';
import { startEmulator } from './start';

const usage =
  'usage: npm run emulator -- [--port 4010] [--seed 42] [--seed-tasks 1000] [--latency-ms 0] [--host 127.0.0.1]\n' +
  '                           [--rate-limit-live 600] [--rate-limit-test 60] [--oauth-auto-approve]\n' +
  '                           [--variance SEED [--variance-faults on|off]]';

function integer(name: string, raw: string | undefined, fallback: number | undefined): number | undefined {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw)) {
    usageError(`--${name} must be a non-negative integer, not '${raw}'`, usage);
  }
  return Number(raw);
}

const values = commandLine(
  {
    port: { type: 'string' },
    seed: { type: 'string' },
    'seed-tasks': { type: 'string' },
    'latency-ms': { type: 'string' },
    host: { type: 'string' },
    'rate-limit-live': { type: 'string' },
    'rate-limit-test': { type: 'string' },
    'oauth-auto-approve': { type: 'boolean' },
    variance: { type: 'string' },
    'variance-faults': { type: 'string' },
    help: { type: 'boolean' },
  },
  usage,
);

const rateLive = integer('rate-limit-live', values['rate-limit-live'], undefined);
const rateTest = integer('rate-limit-test', values['rate-limit-test'], undefined);
const varianceSeed = integer('variance', values.variance, undefined);
const varianceFaults = values['variance-faults'] ?? 'on';
if (varianceFaults !== 'on' && varianceFaults !== 'off') {
  usageError(`--variance-faults must be on or off, not '${varianceFaults}'`, usage);
}
const emulator = await startEmulator({
  port: integer('port', values.port, 0) ?? 0,
  host: values.host ?? '127.0.0.1',
  seed: integer('seed', values.seed, 42) ?? 42,
  seedTasks: integer('seed-tasks', values['seed-tasks'], 1000) ?? 1000,
  latencyMs: integer('latency-ms', values['latency-ms'], 0) ?? 0,
  oauthAutoApprove: values['oauth-auto-approve'] === true,
  ...(varianceSeed !== undefined
    ? { variance: { seed: varianceSeed, faults: varianceFaults === 'on' } }
    : {}),
  rateLimit: {
    ...(rateLive !== undefined ? { live: rateLive } : {}),
    ...(rateTest !== undefined ? { test: rateTest } : {}),
  },
});

process.stdout.write(
  JSON.stringify({
    base_url: emulator.baseUrl,
    auth_url: emulator.authUrl,
    client_id: emulator.clientId,
    org_id: emulator.orgId,
    admin_secret: emulator.adminSecret,
    tokens: emulator.tokens,
    ...(varianceSeed !== undefined
      ? { variance: { seed: varianceSeed, faults: varianceFaults === 'on' } }
      : {}),
  }) + '\n',
);
console.error(
  `emulator listening on ${emulator.baseUrl} (main member ${emulator.me.username}, peer ${emulator.peer.username})`,
);

let stopping = false;
const shutdown = (signal: string) => {
  if (stopping) return;
  stopping = true;
  emulator.stop().then(
    () => {
      console.error(`emulator stopped (${signal})`);
      process.exit(0);
    },
    (error: unknown) => {
      console.error('emulator: stop failed', error);
      process.exit(1);
    },
  );
};
process.on('SIGINT', () => shutdown('SIGINT'));
process.on('SIGTERM', () => shutdown('SIGTERM'));

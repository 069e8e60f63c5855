// `npm run demo:browser`: the app in your own browser, without Electron. Starts
// the emulator with sample data and the end-to-end host in front of it, then
// prints the address to open and the tokens to paste. Needs `npm run build`.
import { parseArgs } from 'node:util';
import { startEmulator } from '../../../emulator/start';
import { startE2eHost } from './e2e-host';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '5170' },
    'seed-tasks': { type: 'string', default: '2000' },
    'latency-ms': { type: 'string', default: '0' },
  },
});

const emulator = await startEmulator({
  seedTasks: Number(values['seed-tasks']),
  latencyMs: Number(values['latency-ms']),
});
const host = await startE2eHost({
  emulator,
  port: Number(values.port),
  openUrl: (url) => {
    console.log(`\nOpen this to sign in with the browser:\n  ${url}\n`);
  },
});

console.log(`svc-desktop in the browser: ${host.url}`);
console.log(`  service:    ${emulator.baseUrl} (emulator, ${values['seed-tasks']} tasks)`);
console.log(`  live token: ${emulator.tokens.live}`);
console.log(`  test token: ${emulator.tokens.test} (read-only)`);
console.log('Ctrl+C stops it.');

const stop = () => {
  void host
    .close()
    .then(() => emulator.stop())
    .finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

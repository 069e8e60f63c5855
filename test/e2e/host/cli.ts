// `npm run demo:browser`: the app in your own browser, without Electron. Starts
// the emulator with sample data and the end-to-end host in front of it, with
// the tests' switchable proxy between the app and the emulator, then prints
// the address to open, the tokens to paste (and the peer's, to edit as another
// member), the emulator's admin secret, and reads 'offline' / 'online' on
// stdin to cut the app off the service and bring it back: offline editing and
// conflicts, tried by hand. Needs `npm run build`.
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { startEmulator } from '../../../emulator/start';
import { startSwitchableProxy } from '../support/switchable-proxy';
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
  answerOnlyOwnHost: true,
});
// The app's only way to the service; the person's own calls (curl with the peer token) go straight to it.
const proxy = await startSwitchableProxy(emulator.baseUrl);
emulator.alsoAnswer(new URL(proxy.url).host);
const host = await startE2eHost({
  emulator,
  serverUrl: proxy.url,
  port: Number(values.port),
  openUrl: (url) => {
    console.log(`\nOpen this to sign in with the browser:\n  ${url}\n`);
  },
});

console.log(`svc-desktop in the browser: ${host.url}`);
console.log(`  service:      ${emulator.baseUrl} (emulator, ${values['seed-tasks']} tasks)`);
console.log(`  app's way in: ${proxy.url} (what 'offline' cuts)`);
console.log(`  live token:   ${emulator.tokens.live}`);
console.log(`  test token:   ${emulator.tokens.test} (read-only)`);
console.log(
  `  peer token:   ${emulator.tokens.peer} (${emulator.peer.username}, another member: edit as them to make a conflict)`,
);
console.log(
  `  admin secret: ${emulator.adminSecret} (X-Emulator-Admin header of ${emulator.baseUrl}/_emulator/)`,
);
console.log("Type 'offline' or 'online' and Enter to cut the app off the service or bring it back.");
console.log('Ctrl+C stops it.');

const input = createInterface({ input: process.stdin });
input.on('line', (line) => {
  const command = line.trim().toLowerCase();
  if (command === 'offline') {
    proxy.goOffline();
    console.log('offline: the app cannot reach the service; its edits wait until you type online.');
  } else if (command === 'online') {
    proxy.goOnline();
    // As the operating system tells the app when the network comes back (main/network-watch.ts).
    host.accounts.networkChanged();
    console.log('online: the app reaches the service again and sends what waited.');
  } else if (command !== '') {
    console.log("Type 'offline' or 'online' (Ctrl+C stops it).");
  }
});

const stop = () => {
  input.close();
  void host
    .close()
    .then(() => proxy.close())
    .then(() => emulator.stop())
    .finally(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);

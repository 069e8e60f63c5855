// `npm run demo`: the desktop app against the local emulator with sample data.
// Starts `npm start` with SVC_DEMO=1, which makes main sign in to the demo at
// launch (the same thing "Try the demo" does). Where Electron cannot start,
// `npm run demo:browser` shows the same app in a browser.
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const child = spawn(npm, ['start'], {
  stdio: 'inherit',
  env: { ...process.env, SVC_DEMO: '1' },
  shell: process.platform === 'win32',
});
child.on('exit', (code, signal) => {
  process.exitCode = code ?? (signal ? 1 : 0);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => child.kill(signal));
}

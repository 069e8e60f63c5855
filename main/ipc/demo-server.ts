// "Try the demo": the local emulator started inside the app, seeded with
// sample data, and the token to sign in to it. The same start function the
// tests and `npm run emulator` use; nothing leaves the computer. Main imports
// this module on demand only, so the emulator is a chunk of its own in out/main.
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import type { DemoServer } from './account-handlers';

/** Sample tasks in the demo: enough to feel real, quick to sync on first start. */
export const DEMO_SEED_TASKS = 2000;

export interface StartedDemo extends DemoServer {
  stop(): Promise<void>;
}

export async function startDemoServer(seedTasks = DEMO_SEED_TASKS): Promise<StartedDemo> {
  // Reached only by this app: a web page's DNS rebinding gets no answer (emulator/loopback-host-guard.ts).
  const emulator: RunningEmulator = await startEmulator({ seedTasks, answerOnlyOwnHost: true });
  return {
    server: { base_url: emulator.baseUrl, auth_url: emulator.authUrl, client_id: emulator.clientId },
    token: emulator.tokens.live,
    stop: () => emulator.stop(),
  };
}

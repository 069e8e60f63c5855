// Updates as the desktop services run them, in Node: electron-updater's own
// updater (test/support/node-app-updater.ts) against a local feed, handed to
// createDesktopServices as main/index.ts hands it autoUpdater; the status
// through the real gate, the tray through the shell's recorder.
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { MemorySecretStore } from '../../sync/auth/secret-store';
import { withEncryptionReport } from '../../sync/accounts/account-secrets';
import type { TrayModel } from '../../services/notify/tray-model';
import { followElectronUpdater } from '../../services/updates/electron-updater-port';
import { nodeAppUpdater } from '../../test/support/node-app-updater';
import { FEED_TEST_KEYS, release } from '../../test/support/update-feed-files';
import { createDesktopServices, type DesktopServices } from '../desktop-services';
import { EVENT_TRANSPORT_CHANNEL, type IpcResult } from '../../ipc/transport';
import { APP_ENTRY_URL, APP_ORIGIN, trustedPageUrlCheck } from '../security/app-protocol';
import { gateWithInvoke } from '../ipc/testing/gate-harness';

let dir: string;
let server: Server;
let services: DesktopServices | undefined;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-update-services-'));
  const files = release('0.3.0');
  server = createServer((req, res) => {
    const body = files.get(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    if (body === undefined) res.writeHead(404).end();
    else res.writeHead(200, { 'content-length': String(Buffer.byteLength(body)) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterEach(async () => {
  await services?.close();
  services = undefined;
  await new Promise((resolve) => server.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

test('a verified update reaches the status bar and the tray; its tray action installs it', async () => {
  const feedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const { gate, invoke } = gateWithInvoke(trustedPageUrlCheck([APP_ORIGIN]));
  let announced!: (payload: unknown) => void;
  const ready = new Promise<unknown>((resolve) => (announced = resolve));
  gate.trust({
    id: 3,
    isDestroyed: () => false,
    send: (channel, message) => {
      const { name, payload } = message as { name: string; payload: { state?: string } };
      if (
        channel === EVENT_TRANSPORT_CHANNEL &&
        name === 'updates:status-changed' &&
        payload.state === 'ready'
      ) {
        announced(payload);
      }
    },
    once: () => undefined,
  });
  const trays: TrayModel[] = [];
  let installs = 0;

  const running = await createDesktopServices({
    userDataDir: dir,
    secretStore: withEncryptionReport(new MemorySecretStore(), true),
    gate,
    appInfo: { name: 'svc-desktop', version: '0.2.0', platform: process.platform },
    arch: process.arch,
    env: {},
    startDemo: () => Promise.reject(new Error('no demo here')),
    followUpdates: (wiring) =>
      followElectronUpdater(nodeAppUpdater({ version: '0.2.0', dir: join(dir, 'updater'), feedUrl }), {
        ...wiring,
        verifyingKey: FEED_TEST_KEYS.publicKey,
        network: () => ({ online: true, metered: false }),
        install: async () => {
          await running.close();
          installs += 1;
        },
      }),
    shell: {
      openExternal: () => Promise.resolve(),
      applyTheme: () => undefined,
      showNotifications: () => undefined,
      trayChanged: (model) => trays.push(model),
      writeClipboard: () => undefined,
      confirmKeepWithoutKeychain: () => Promise.resolve(false),
      showWindow: () => undefined,
      quit: () => undefined,
    },
  });
  services = running;

  expect(await ready).toMatchObject({ state: 'ready', version: '0.3.0', can_restart: true });
  const call = async (channel: string) => {
    const answer = (await invoke(
      { sender: { id: 3 }, senderFrame: { url: APP_ENTRY_URL, parent: null } },
      { channel, input: undefined },
    )) as IpcResult<unknown>;
    if (!answer.ok) throw new Error(`${channel}: ${answer.error.message}`);
    return answer.value;
  };
  expect(await call('updates:status')).toMatchObject({
    state: 'ready',
    message: 'Restart to update to 0.3.0',
  });
  const restart = {
    kind: 'action',
    label: 'Restart to update to 0.3.0',
    action: { type: 'restart-to-update' },
  };
  expect(trays.at(-1)?.menu[0]).toMatchObject({ ...restart, enabled: true });
  expect(running.trayModel().menu[0]).toMatchObject(restart);

  running.trayAction({ type: 'restart-to-update' });
  await expect.poll(() => installs).toBe(1);
});

// The update controller driving electron-updater's own updater (in Node, see
// test/support/node-app-updater.ts) against a local HTTP server that serves a
// feed as electron-builder publishes it: latest.yml, latest-mac.yml and
// latest-linux.yml beside the installers they describe, each signed
// (latest-linux.yml.sig, …) by a test key the updater trusts in place of the app's.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { nodeAppUpdater, pendingDownloadDir } from '../../test/support/node-app-updater';
import {
  FEED_TEST_KEYS,
  release,
  RELEASE_DATE,
  sha512,
  signFeed,
} from '../../test/support/update-feed-files';
import { followElectronUpdater } from './electron-updater-port';
import { signedFeedConfiguration } from './signed-feed-provider';
import type { UpdateController } from './update-controller';
import { RETRY_AFTER_FAILURE_MS, type UpdateStatus } from './update-policy';

let dir: string;
let server: Server;
let files: Map<string, string | Buffer>;
/** Answers in turn for a path asked more than once; the last one stays. */
let answers: Map<string, (string | Buffer)[]>;
let requests: string[];
let controller: UpdateController | undefined;
let installs: number;

async function serve(): Promise<string> {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    requests.push(path);
    const turns = answers.get(path);
    const body = turns !== undefined && turns.length > 1 ? turns.shift() : (turns?.[0] ?? files.get(path));
    if (body === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-length': String(Buffer.byteLength(body)) }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'update-feed-'));
  requests = [];
  installs = 0;
  files = new Map();
  answers = new Map();
});

afterEach(async () => {
  controller?.stop();
  controller = undefined;
  if (server.listening) await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** The controller over a real updater of an installed 0.2.0; `now` is the controller's clock. */
interface Surroundings {
  network?: { online: boolean; metered: boolean };
  outbox?: { pending: number; inFlight: number };
  syncNow?: () => void;
  onInstall?: () => void;
  /** The update_feed_url setting. */
  feedSetting?: string;
  /** The key the feed must be signed with (default: the test feeds' key). */
  verifyingKey?: KeyObject;
}

function follow(
  feedUrl: string,
  clock: { now: number },
  platform?: 'linux' | 'darwin' | 'win32',
  around: Surroundings = {},
) {
  const statuses: UpdateStatus[] = [];
  let waiters: { test: (s: UpdateStatus) => boolean; resolve: (s: UpdateStatus) => void }[] = [];
  const updater = nodeAppUpdater({
    version: '0.2.0',
    dir,
    feedUrl,
    ...(platform !== undefined ? { platform } : {}),
  });
  const following = followElectronUpdater(updater, {
    feedUrl: around.feedSetting ?? null,
    verifyingKey: around.verifyingKey ?? FEED_TEST_KEYS.publicKey,
    network: () => around.network ?? { online: true, metered: false },
    outbox: () => around.outbox ?? { pending: 0, inFlight: 0 },
    syncNow: () => around.syncNow?.(),
    now: () => clock.now,
    settlePollMs: 5,
    install: () => {
      installs += 1;
      around.onInstall?.();
      return Promise.resolve();
    },
    onChange: (status) => {
      statuses.push(status);
      const met = waiters.filter((w) => w.test(status));
      waiters = waiters.filter((w) => !w.test(status));
      for (const w of met) w.resolve(status);
    },
  });
  const settled = (test: (s: UpdateStatus) => boolean) =>
    new Promise<UpdateStatus>((resolve) => waiters.push({ test, resolve }));
  /** Runs `step` and answers the status that ends the check it began (ready, failed or idle). */
  const checked = (step: () => void): Promise<UpdateStatus> => {
    const end = settled(done);
    step();
    return end;
  };
  controller = following;
  return {
    controller: following,
    statuses,
    settled,
    /** Starts following; the first check's outcome. */
    started: () => checked(() => following.start()),
    /** The next check (a tick of the clock's schedule); its outcome. */
    ticked: () => checked(() => following.tick()),
  };
}

const done = (s: UpdateStatus) => s.state === 'ready' || s.state === 'failed' || s.state === 'idle';

describe('an installed 0.2.0 following a generic feed', () => {
  test('a newer version is downloaded in the background, verified, and offered as "Restart to update to 0.3.0"', async () => {
    files = release('0.3.0');
    const { controller, statuses, started } = follow(await serve(), { now: 0 });
    const status = await started();

    expect(status).toMatchObject({
      state: 'ready',
      version: '0.3.0',
      message: 'Restart to update to 0.3.0',
      can_restart: true,
    });
    expect(statuses.map((s) => s.state)).toContain('downloading');
    expect(requests).toEqual([
      '/latest-linux.yml',
      '/latest-linux.yml.sig',
      '/svc-desktop-0.3.0-linux-amd64.deb',
    ]);
    const pending = pendingDownloadDir(dir);
    expect(readFileSync(join(pending, 'svc-desktop-0.3.0-linux-amd64.deb'))).toEqual(
      files.get('/svc-desktop-0.3.0-linux-amd64.deb'),
    );

    // Nothing queued: installs at once.
    expect(controller.restartToUpdate()).toMatchObject({ state: 'waiting', version: '0.3.0' });
    expect(installs).toBe(1);
  });

  test('"Restart to update" waits while edits are being sent, asks for a sync, and installs once they are', async () => {
    files = release('0.3.0');
    const outbox = { pending: 2, inFlight: 1 };
    let syncs = 0;
    let installed!: () => void;
    const install = new Promise<void>((resolve) => (installed = resolve));
    const clock = { now: 0 };
    const { controller, settled, started } = follow(await serve(), clock, undefined, {
      outbox,
      syncNow: () => (syncs += 1),
      onInstall: () => installed(),
    });
    expect(await started()).toMatchObject({ state: 'ready' });

    const sent = settled(
      (s) => s.state === 'waiting' && s.message === 'Sending 1 change, then restarting to update to 0.3.0',
    );
    expect(controller.restartToUpdate()).toMatchObject({
      state: 'waiting',
      message: 'Sending 2 changes, then restarting to update to 0.3.0',
      can_restart: false,
    });
    expect(syncs).toBe(1);
    expect(installs).toBe(0);
    outbox.pending = 1;
    outbox.inFlight = 0;
    await sent;
    expect(installs).toBe(0);
    outbox.pending = 0;
    await install;
    expect(installs).toBe(1);
  });

  test('nothing is asked of the feed on a metered network, nor offline', async () => {
    files = release('0.3.0');
    const url = await serve();
    for (const network of [
      { online: true, metered: true },
      { online: false, metered: false },
    ]) {
      const { controller } = follow(url, { now: 0 }, undefined, { network });
      controller.start();
      controller.tick();
      expect(controller.status()).toMatchObject({ state: 'idle', message: null });
      controller.stop();
    }
    expect(requests).toEqual([]);
  });

  test('the update_feed_url setting replaces the packaged feed', async () => {
    files = release('0.3.0');
    const live = await serve();
    const { started } = follow('http://127.0.0.1:9/packaged/', { now: 0 }, undefined, {
      feedSetting: live,
    });
    expect(await started()).toMatchObject({ state: 'ready', version: '0.3.0' });
  });

  test('a refused feed setting turns updates off, says why, and asks no feed', async () => {
    files = release('0.3.0');
    await serve();
    const { controller } = follow('http://127.0.0.1:9/packaged/', { now: 0 }, undefined, {
      feedSetting: 'http://updates.example.com/desktop/',
    });
    controller.start();
    controller.tick();
    expect(controller.status()).toMatchObject({
      state: 'failed',
      reason: 'feed-refused',
      retry_at: null,
    });
    expect(controller.status().message).toMatch(
      /^Updates are off, the update feed setting was refused: it must use https/u,
    );
    expect(requests).toEqual([]);
  });

  test('a feed missing from the server is a clear error', async () => {
    files = new Map();
    const { started } = follow(await serve(), { now: 0 });
    const status = await started();
    expect(status).toMatchObject({ state: 'failed', reason: 'unreachable' });
    expect(status.message).toBe(
      'Could not get the update from its server: Cannot find channel "latest-linux.yml" on the server. Trying again later.',
    );
  });

  test('the same version offers nothing and downloads nothing', async () => {
    files = release('0.2.0');
    const { controller, started } = follow(await serve(), { now: 0 });
    expect(await started()).toMatchObject({ state: 'idle', message: null, can_restart: false });
    expect(requests).toEqual(['/latest-linux.yml', '/latest-linux.yml.sig']);
    expect(existsSync(pendingDownloadDir(dir))).toBe(false);
    expect(controller.restartToUpdate()).toMatchObject({ state: 'idle' });
    expect(installs).toBe(0);
  });

  test('a malformed feed is a clear error and nothing is downloaded', async () => {
    files = signFeed(new Map([['/latest-linux.yml', 'version: [0.3.0\nfiles: {{{\n']]));
    const { started } = follow(await serve(), { now: 0 });
    const status = await started();
    expect(status).toMatchObject({ state: 'failed', reason: 'malformed-feed', can_restart: false });
    expect(status.message).toMatch(
      /^The update feed could not be read: Cannot parse update info from latest-linux\.yml/u,
    );
    expect(status.message).not.toContain('\n');
    expect(requests).toEqual(['/latest-linux.yml', '/latest-linux.yml.sig']);
    expect(existsSync(pendingDownloadDir(dir))).toBe(false);
  });

  test('a feed without a version is malformed too', async () => {
    files = signFeed(
      new Map([['/latest-linux.yml', `files:\n  - url: a.deb\n    sha512: abc\n    size: 3\n`]]),
    );
    const { started } = follow(await serve(), { now: 0 });
    expect(await started()).toMatchObject({ state: 'failed', reason: 'malformed-feed' });
    expect(requests).toEqual(['/latest-linux.yml', '/latest-linux.yml.sig']);
  });

  test('an unreachable server is a clear error, retried after the retry time, and then succeeds', async () => {
    const url = await serve();
    await new Promise((resolve) => server.close(resolve));
    const clock = { now: Date.parse('2026-11-24T12:00:00.000Z') };
    const { controller, started, ticked } = follow(url, clock);
    const status = await started();
    expect(status).toMatchObject({
      state: 'failed',
      reason: 'unreachable',
      retry_at: new Date(clock.now + RETRY_AFTER_FAILURE_MS).toISOString(),
    });
    expect(status.message).toMatch(/^Could not get the update from its server: .*ECONNREFUSED/u);

    // Not before its time.
    clock.now += RETRY_AFTER_FAILURE_MS - 1;
    controller.tick();
    expect(controller.status().state).toBe('failed');

    files = release('0.3.0');
    const port = Number(new URL(url).port);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    clock.now += 1;
    expect(await ticked()).toMatchObject({ state: 'ready', version: '0.3.0' });
  });

  test('a download whose sha512 does not match is refused and deleted', async () => {
    files = release('0.3.0', { debSha512: sha512(Buffer.from('some other file')) });
    const { controller, started } = follow(await serve(), { now: 0 });
    const status = await started();
    expect(status).toMatchObject({ state: 'failed', reason: 'checksum-mismatch', can_restart: false });
    expect(status.message).toMatch(
      /^The downloaded update did not match its checksum and was deleted: sha512 checksum mismatch/u,
    );
    expect(requests).toContain('/svc-desktop-0.3.0-linux-amd64.deb');
    // Nothing kept: neither the pending file nor the partial download beside it.
    const cache = join(dir, 'cache', 'svc-desktop-updater');
    const kept = existsSync(cache) ? readdirSync(cache, { recursive: true }).map(String) : [];
    expect(kept.filter((name) => name.endsWith('.deb'))).toEqual([]);
    expect(controller.restartToUpdate()).toMatchObject({ state: 'failed' });
    expect(installs).toBe(0);
  });

  test.each([
    ['win32', '/latest.yml'],
    ['darwin', '/latest-mac.yml'],
    ['linux', '/latest-linux.yml'],
  ] as const)('on %s the feed is read from %s, and its signature beside it', async (platform, channel) => {
    files = release('0.3.0');
    const feedUrl = await serve();
    const updater = nodeAppUpdater({ version: '0.2.0', dir, feedUrl, platform });
    updater.setFeedURL(signedFeedConfiguration({ url: feedUrl }, FEED_TEST_KEYS.publicKey));
    updater.autoDownload = false;
    const result = await updater.checkForUpdates();
    expect(result).toMatchObject({
      isUpdateAvailable: true,
      updateInfo: { version: '0.3.0', releaseDate: RELEASE_DATE },
    });
    expect(requests).toEqual([channel, `${channel}.sig`]);
  });
});

describe("the feed's signature, checked before anything is downloaded", () => {
  const LINUX_FEED = ['/latest-linux.yml', '/latest-linux.yml.sig'];
  const UNSIGNED = "The update feed is not signed by the app's publisher, nothing was downloaded";

  /** The feed as the app refuses it: asked for its channel file and signature, and nothing else. */
  async function refused(how: { viaSetting?: boolean } = {}): Promise<UpdateStatus> {
    const clock = { now: Date.parse('2026-11-24T12:00:00.000Z') };
    const url = await serve();
    const { controller, started } = how.viaSetting
      ? follow('http://127.0.0.1:9/packaged/', clock, undefined, { feedSetting: url })
      : follow(url, clock);
    const status = await started();
    expect(status).toMatchObject({
      state: 'failed',
      reason: 'unsigned-feed',
      can_restart: false,
      // Tried again like any failure: a feed caught mid-upload gets another look.
      retry_at: new Date(clock.now + RETRY_AFTER_FAILURE_MS).toISOString(),
    });
    expect(requests).toEqual(LINUX_FEED);
    expect(existsSync(pendingDownloadDir(dir))).toBe(false);
    expect(controller.restartToUpdate()).toMatchObject({ state: 'failed' });
    expect(installs).toBe(0);
    return status;
  }

  test('a channel file changed by one byte after it was signed is refused', async () => {
    files = release('0.3.0');
    const signed = String(files.get('/latest-linux.yml'));
    files.set('/latest-linux.yml', signed.replace('version: 0.3.0', 'version: 0.3.1'));
    expect((await refused()).message).toBe(
      `${UNSIGNED}: latest-linux.yml is not signed with the app's update key. Trying again later.`,
    );
  });

  test('a feed signed by another key is refused', async () => {
    files = release('0.3.0', { signedWith: generateKeyPairSync('ed25519').privateKey });
    expect((await refused()).message).toBe(
      `${UNSIGNED}: latest-linux.yml is not signed with the app's update key. Trying again later.`,
    );
  });

  test('a feed without signatures is refused', async () => {
    files = release('0.3.0', { signedWith: null });
    expect((await refused()).message).toBe(
      `${UNSIGNED}: latest-linux.yml.sig is missing. Trying again later.`,
    );
  });

  test('a signature file that is not a signature is refused', async () => {
    files = release('0.3.0');
    files.set('/latest-linux.yml.sig', '<html>Not here</html>\n');
    expect((await refused()).message).toBe(
      `${UNSIGNED}: latest-linux.yml.sig is not an Ed25519 signature. Trying again later.`,
    );
  });

  test('the update_feed_url setting is held to the same signature', async () => {
    files = release('0.3.0', { signedWith: null });
    await refused({ viaSetting: true });
  });

  test.each([
    ['the signed file first and another after', 'signed', { state: 'ready', version: '0.3.0' }],
    ['another file first and the signed one after', 'other', { state: 'failed', reason: 'unsigned-feed' }],
  ] as const)(
    'the channel file used is the one verified, read once, though the server answers %s',
    async (_order, first, outcome) => {
      files = release('0.3.0');
      const signed = String(files.get('/latest-linux.yml'));
      // The next version's feed, unsigned, with its installers in place.
      for (const [path, body] of release('0.4.0', { signedWith: null })) {
        if (path.endsWith('.yml')) {
          if (path === '/latest-linux.yml')
            answers.set(path, first === 'signed' ? [signed, body] : [body, signed]);
        } else {
          files.set(path, body);
        }
      }
      const { started } = follow(await serve(), { now: 0 });
      expect(await started()).toMatchObject(outcome);
      expect(requests.filter((path) => path === '/latest-linux.yml')).toHaveLength(1);
      expect(requests).not.toContain('/svc-desktop-0.4.0-linux-amd64.deb');
    },
  );

  test('a feed refused for its signature is taken once it is signed, at the next attempt', async () => {
    files = release('0.3.0', { signedWith: null });
    const clock = { now: 0 };
    const { started, ticked } = follow(await serve(), clock);
    expect(await started()).toMatchObject({ state: 'failed', reason: 'unsigned-feed' });

    signFeed(files);
    clock.now += RETRY_AFTER_FAILURE_MS;
    expect(await ticked()).toMatchObject({ state: 'ready', version: '0.3.0' });
  });
});

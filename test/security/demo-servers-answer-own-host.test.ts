// The demo's servers answer only requests meant for them: a web page that
// rebinds its own name to 127.0.0.1 (Host: evil.example:PORT), or posts from
// its own origin, gets a refusal from the emulator the app starts for "Try the
// demo", from the browser demo's emulator and from its host.
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { startDemoServer, type StartedDemo } from '../../main/ipc/demo-server';
import { type E2eHost, startE2eHost } from '../e2e/host/e2e-host';
import { type RunningEmulator, startEmulator } from '../../emulator/start';

interface Answer {
  status: number;
  body: string;
}

/** A request to `base` with the headers a browser page could send (Host included). */
function send(base: string, path: string, headers: Record<string, string>, method = 'GET'): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const call = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    call.on('error', reject);
    call.end();
  });
}

const portOf = (base: string) => new URL(base).port;
const authorizePath =
  '/oauth/authorize?response_type=code&client_id=svcc_desktop&redirect_uri=http%3A%2F%2F127.0.0.1%3A9%2Fcallback&state=s&code_challenge=abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrs&code_challenge_method=S256&scope=tasks%3Aread';

let stopAll: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(stopAll.map((stop) => stop()));
  stopAll = [];
});

describe("the app's demo emulator", () => {
  async function demo(): Promise<StartedDemo> {
    const started = await startDemoServer(25);
    stopAll.push(() => started.stop());
    return started;
  }

  test('answers its own address, with or without its own origin', async () => {
    const { server, token } = await demo();
    const port = portOf(server.base_url);
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const me = await send(server.base_url, '/v1/me', { host, authorization: `Bearer ${token}` });
      expect(me.status, host).toBe(200);
    }
    const own = await send(server.base_url, '/v1/me', {
      host: `127.0.0.1:${port}`,
      origin: `http://127.0.0.1:${port}`,
      authorization: `Bearer ${token}`,
    });
    expect(own.status).toBe(200);
  });

  test('refuses a rebound host, for the API and the consent page, saying why', async () => {
    const { server, token } = await demo();
    const host = `evil.example:${portOf(server.base_url)}`;
    const me = await send(server.base_url, '/v1/me', { host, authorization: `Bearer ${token}` });
    expect(me.status).toBe(403);
    expect((JSON.parse(me.body) as { detail: string }).detail).toContain(`not for '${host}'`);
    const consent = await send(server.base_url, authorizePath, { host });
    expect(consent.status).toBe(403);
    expect(consent.body).not.toContain('Approve');
  });

  test("refuses another site's origin on its own host", async () => {
    const { server, token } = await demo();
    const port = portOf(server.base_url);
    for (const origin of [
      'http://evil.example',
      `http://evil.example:${port}`,
      'null',
      `https://127.0.0.1:${port}`,
    ]) {
      const me = await send(server.base_url, '/v1/me', {
        host: `127.0.0.1:${port}`,
        origin,
        authorization: `Bearer ${token}`,
      });
      expect(me.status, origin).toBe(403);
    }
  });
});

describe('an emulator not started for the demo', () => {
  test('answers any host: the tests put proxies in front of it', async () => {
    const emulator: RunningEmulator = await startEmulator({ seedTasks: 5 });
    stopAll.push(() => emulator.stop());
    const me = await send(emulator.baseUrl, '/v1/me', {
      host: 'proxy.test:1',
      authorization: `Bearer ${emulator.tokens.live}`,
    });
    expect(me.status).toBe(200);
  });

  test('answering only its own host, it also answers the proxy it is told of', async () => {
    const emulator = await startEmulator({ seedTasks: 5, answerOnlyOwnHost: true });
    stopAll.push(() => emulator.stop());
    const headers = { host: '127.0.0.1:1', authorization: `Bearer ${emulator.tokens.live}` };
    expect((await send(emulator.baseUrl, '/v1/me', headers)).status).toBe(403);
    emulator.alsoAnswer('127.0.0.1:1');
    expect((await send(emulator.baseUrl, '/v1/me', headers)).status).toBe(200);
  });
});

describe("the browser demo's host", () => {
  async function host(): Promise<E2eHost> {
    const started = await startE2eHost({ seedTasks: 5 });
    stopAll.push(() => started.close());
    return started;
  }

  test('serves its page and events to its own address only', async () => {
    const { url } = await host();
    const port = portOf(url);
    const page = await send(url, '/', { host: `127.0.0.1:${port}` });
    expect(page.status).toBe(200);
    const rebound = await send(url, '/', { host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain(`not for 'evil.example:${port}'`);
    const events = await send(url, '/__svc/events', { host: `evil.example:${port}` });
    expect(events.status).toBe(403);
    const posted = await send(
      url,
      '/__svc/invoke',
      { host: `127.0.0.1:${port}`, origin: 'http://evil.example' },
      'POST',
    );
    expect(posted.status).toBe(403);
    expect(posted.body).toContain("not from 'http://evil.example'");
  });
});

// A small HTTP relay in front of the emulator, for what the emulator itself
// cannot do: corrupt one answer's body (a malformed page) and count requests
// in flight at once (is revalidation concurrent?). Requests and answers pass
// through unchanged otherwise, over real sockets.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';

export interface RelayProxy {
  baseUrl: string;
  /** Rewrites a 200 answer's body; return it unchanged to pass it through. */
  rewrite: ((path: string, body: string) => string) | null;
  /** The most requests under `/v1/tasks` in flight at once since the last reset. */
  maxTasksInFlight: number;
  resetCounts(): void;
  close(): Promise<void>;
}

export async function startRelayProxy(target: string): Promise<RelayProxy> {
  let inFlight = 0;
  const relay: RelayProxy = {
    baseUrl: '',
    rewrite: null,
    maxTasksInFlight: 0,
    resetCounts() {
      relay.maxTasksInFlight = 0;
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = req.url ?? '/';
    const path = url.split('?')[0] ?? url;
    const counted = path === '/v1/tasks';
    if (counted) {
      inFlight += 1;
      relay.maxTasksInFlight = Math.max(relay.maxTasksInFlight, inFlight);
    }
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && name !== 'host' && name !== 'connection') headers[name] = value;
      }
      const answer = await request(`${target}${url}`, {
        method: req.method as 'GET',
        headers,
        body: chunks.length > 0 ? Buffer.concat(chunks) : null,
      });
      let body = await answer.body.text();
      if (answer.statusCode === 200 && relay.rewrite) body = relay.rewrite(url, body);
      const out: Record<string, string> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (
          typeof value === 'string' &&
          name !== 'content-length' &&
          name !== 'connection' &&
          name !== 'transfer-encoding'
        ) {
          out[name] = value;
        }
      }
      res.writeHead(answer.statusCode, out).end(body);
    } finally {
      if (counted) inFlight -= 1;
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  relay.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return relay;
}

// A TCP proxy between the app and the emulator that a test can unplug: while
// offline it refuses new connections and cuts the open ones, so the app meets
// a server that is really unreachable (not one that answers errors), and the
// emulator keeps its data for when the network comes back. Offline, it stops
// listening: a connection is refused (ECONNREFUSED, a request that certainly
// never left). Accepting one and cutting it at once, as it did, let a loaded
// machine's client write a whole request first, and see a connection cut after
// its request (ECONNRESET: it may have reached the service, so the change stays
// being sent): an upload dropped offline showed "Sending", not "waiting", in
// attachments.test.ts on a loaded machine.
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SwitchableProxy {
  /** `http://127.0.0.1:PORT`: give this to the app as the server address. */
  readonly url: string;
  goOffline(): void;
  goOnline(): void;
  close(): Promise<void>;
}

export async function startSwitchableProxy(target: string): Promise<SwitchableProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let online = true;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server: Server = createServer((client) => {
    track(client);
    if (!online) {
      client.destroy();
      return;
    }
    const upstream = createConnection({ host: hostname, port: Number(port) });
    track(upstream);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', () => ready()));
  const address = server.address() as AddressInfo;
  let closed = false;
  return {
    url: `http://127.0.0.1:${address.port}`,
    goOffline() {
      if (online) server.close();
      online = false;
      for (const socket of sockets) socket.destroy();
    },
    goOnline() {
      // The same port again: the app keeps the address it was given. Node binds it before returning.
      if (!online && !closed) server.listen(address.port, '127.0.0.1');
      online = true;
    },
    async close() {
      closed = true;
      for (const socket of sockets) socket.destroy();
      if (server.listening) await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

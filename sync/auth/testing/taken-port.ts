// For tests of a listener asked for a port something else already holds.
import { createServer } from 'node:net';

/** Runs `use` with a loopback port another server is listening on; that server is closed afterwards. */
export async function withTakenPort(use: (port: number) => Promise<void>): Promise<void> {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const address = blocker.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  try {
    await use(address.port);
  } finally {
    await new Promise((resolve) => blocker.close(resolve));
  }
}

// API clients a test bench hands out, one per token, all against the same
// server and all closed together when the bench closes.
import { ApiClient, type ApiClientOptions } from '../api-client';
import { staticCredentials } from '../credentials';

export interface StaticClients {
  /** A client that sends `token` as it is (read-only, narrow scopes, revoked...). */
  withToken(token: string): ApiClient;
  /** Closes every client handed out. */
  closeAll(): Promise<void>;
}

export function staticClients(baseUrl: string, retry: NonNullable<ApiClientOptions['retry']>): StaticClients {
  const clients: ApiClient[] = [];
  return {
    withToken(token) {
      const client = new ApiClient({ baseUrl, credentials: staticCredentials(token), retry });
      clients.push(client);
      return client;
    },
    async closeAll() {
      await Promise.all(clients.map((client) => client.close()));
    },
  };
}

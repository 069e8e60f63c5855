// Test support: a standards-based authorization server that is not ours.
// oidc-provider (OpenID Certified, RFC 6749/7636/8252/9207/9700) on 127.0.0.1,
// set up for a public native client with loopback redirects on any port, PKCE
// S256 required and rotating refresh tokens; the person's approval is given
// at once. Beside it, a tiny API answers `GET /v1/me` for the tokens that
// server issued, asking the provider itself whether a token is valid.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import { request } from 'undici';
import { DEFAULT_SCOPES } from '../oauth-flow';
import { type Page, recordingBrowser } from './consent-browser';

export const STANDARD_CLIENT_ID = 'svc-desktop-native';
export const STANDARD_ACCOUNT = { user_id: 'user-standard-1', username: 'ada', email: 'ada@example.test' };

export interface StandardAuthServerOptions {
  /** Scopes the server knows; default the desktop app's. */
  scopes?: readonly string[];
  /** Whether a code exchange gives a refresh token (RFC 6749 5.1 makes it optional); default true. */
  refreshTokens?: boolean;
  /** Access token lifetime in seconds; default 3600. */
  accessTokenTtlSeconds?: number;
  /** What `/v1/me` answers as `org_id`; default absent, as a plain OAuth server knows no organization. */
  meOrgId?: string;
  /** `decision: 'deny'` makes the person refuse on the consent step. */
  decision?: 'approve' | 'deny';
}

export interface StandardAuthServer {
  /** The issuer, and the client's `auth_url`: endpoints are `{auth_url}/oauth/authorize` and `/oauth/token`. */
  readonly authUrl: string;
  /** The tiny API (`/v1/me`), on the same origin. */
  readonly baseUrl: string;
  readonly clientId: string;
  readonly provider: Provider;
  /** How many requests the token endpoint has answered (exchanges and refreshes, granted or refused). */
  tokenRequests(): number;
  /**
   * From now on `/v1/me` answers 401 token-expired for this access token (as
   * after a clock jump), while the provider still honours it.
   */
  expireAccessToken(token: string): void;
  /** Changes the person's answer for the next sign-ins. */
  decide(decision: 'approve' | 'deny'): void;
  close(): Promise<void>;
}

export async function startStandardAuthServer(
  options: StandardAuthServerOptions = {},
): Promise<StandardAuthServer> {
  const scopes = options.scopes ?? DEFAULT_SCOPES;
  let decision = options.decision ?? 'approve';
  const server = createServer();
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: STANDARD_CLIENT_ID,
        application_type: 'native',
        token_endpoint_auth_method: 'none',
        // RFC 8252 7.3: a loopback redirect matches whatever port the app listens on.
        redirect_uris: ['http://127.0.0.1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
      },
    ],
    scopes: [...scopes],
    routes: { authorization: '/oauth/authorize', token: '/oauth/token' },
    pkce: { required: () => true },
    responseTypes: ['code'],
    issueRefreshToken: () => Promise.resolve(options.refreshTokens ?? true),
    rotateRefreshToken: () => true,
    ttl: {
      AccessToken: options.accessTokenTtlSeconds ?? 3600,
      AuthorizationCode: 60,
      Interaction: 600,
      Grant: 86_400,
      Session: 86_400,
      RefreshToken: 86_400,
    },
    findAccount: (_context: unknown, id: string) =>
      Promise.resolve({ accountId: id, claims: () => Promise.resolve({ sub: id }) }),
    interactions: {
      url: (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['test-only-cookie-key'] },
  });
  const handleProvider = provider.callback();
  let tokenRequests = 0;
  const expired = new Set<string>();
  provider.on('grant.success', () => (tokenRequests += 1));
  provider.on('grant.error', () => (tokenRequests += 1));

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (path === '/v1/me') return void answerMe(req, res);
    if (path.startsWith('/interaction/')) return void approve(req, res);
    handleProvider(req, res);
  });

  /** The consent step, answered as the person would: approve every scope asked, or deny. */
  async function approve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const details = await provider.interactionDetails(req, res);
      if (decision === 'deny') {
        await provider.interactionFinished(
          req,
          res,
          { error: 'access_denied', error_description: 'The person declined' },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = new provider.Grant({
        accountId: STANDARD_ACCOUNT.user_id,
        clientId: String(details.params.client_id),
      });
      const scope = details.params.scope;
      grant.addOIDCScope(typeof scope === 'string' ? scope : '');
      const grantId = await grant.save();
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: STANDARD_ACCOUNT.user_id }, consent: { grantId } },
        { mergeWithLastSubmission: false },
      );
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  }

  /** `GET /v1/me` for a token the provider issued and still honours; a 401 problem otherwise. */
  async function answerMe(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const bearer = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const token = bearer ? await provider.AccessToken.find(bearer, { ignoreExpiration: true }) : undefined;
    if (!token || token.isExpired || expired.has(bearer ?? '')) {
      const type = token ? 'token-expired' : 'token-invalid';
      const body = {
        type: `urn:svc:problem:${type}`,
        title: type,
        status: 401,
        detail: type === 'token-expired' ? 'The access token has expired' : 'Unknown token',
        instance: '/v1/me',
        request_id: 'req-standard',
      };
      res.writeHead(401, { 'content-type': 'application/problem+json' }).end(JSON.stringify(body));
      return;
    }
    const me: Record<string, unknown> = { ...STANDARD_ACCOUNT, user_id: token.accountId };
    if (options.meOrgId !== undefined) me.org_id = options.meOrgId;
    res.writeHead(200, { 'content-type': 'application/json', etag: '"me-1"' }).end(JSON.stringify(me));
  }

  return {
    authUrl: issuer,
    baseUrl: issuer,
    clientId: STANDARD_CLIENT_ID,
    provider,
    tokenRequests: () => tokenRequests,
    expireAccessToken(token) {
      expired.add(token);
    },
    decide(next) {
      decision = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface RedirectingBrowserScript {
  /** Runs when the server redirects to the app, before the browser follows; may change the URL it follows. */
  beforeCallback?(callbackUrl: URL): void | URL | Promise<void | URL>;
}

export interface RedirectingBrowser {
  openUrl: (url: string) => void;
  readonly opened: string[];
  /** Every page visited by the last browse, in order. */
  readonly visited: Page[];
  /** Settles when the last browse has ended: with the page the loopback listener answered. */
  readonly finished: Promise<Page>;
}

/**
 * Plays the system browser against a server whose consent step needs no
 * clicks: follows redirects with a cookie jar (the provider keeps the
 * interaction in cookies) until the server sends it to the app's loopback
 * address, then visits that and keeps the page it answers.
 */
export function redirectingBrowser(script: RedirectingBrowserScript = {}): RedirectingBrowser {
  const jar = new Map<string, string>();

  async function get(url: URL, visited: Page[]): Promise<Page> {
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await request(url, { headers: cookie ? { cookie } : {} });
    const setCookie = response.headers['set-cookie'];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : []) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.location;
    const page: Page = {
      url: url.href,
      status: response.statusCode,
      location: typeof location === 'string' ? location : undefined,
      body: await response.body.text(),
    };
    visited.push(page);
    return page;
  }

  return recordingBrowser(async (start, visited) => {
    const origin = new URL(start).origin;
    let page = await get(new URL(start), visited);
    for (let hops = 0; hops < 10; hops += 1) {
      if (page.status < 300 || page.status >= 400 || page.location === undefined) {
        throw new Error(`the sign-in server did not redirect back to the app (status ${page.status})`);
      }
      let next = new URL(page.location, page.url);
      if (next.origin !== origin) {
        next = (await script.beforeCallback?.(next)) ?? next;
        return await get(next, visited);
      }
      page = await get(next, visited);
    }
    throw new Error('too many redirects on the sign-in server');
  });
}

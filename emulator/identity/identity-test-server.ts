// A bare Fastify server with only the identity routes and the smallest auth
// hook, so identity's HTTP behaviour can be tested apart from the full emulator.
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../clock';
import { ProblemReply } from '../problem';
import { type Member, type MintTokenInput, IdentityStore, requireScope } from './identity-store';
import { registerIdentityRoutes } from './routes';

export interface IdentityTestServer {
  baseUrl: string;
  clock: ManualClock;
  store: IdentityStore;
  members: Map<string, Member>;
  me: Member;
  peer: Member;
  /** Main member (owner): tasks/projects/teams/org write. */
  liveToken: string;
  /** Second member: no org scopes beyond members:read. */
  peerToken: string;
  stop(): Promise<void>;
}

export async function startIdentityTestServer(
  options: { oauthAutoApprove?: boolean } = {},
): Promise<IdentityTestServer> {
  const clock = new ManualClock();
  const orgId = 'org_identity';
  const me: Member = {
    user_id: 'u_main',
    org_id: orgId,
    username: 'main',
    email: 'main@example.test',
    role: 'owner',
    kind: 'user',
    is_active: true,
  };
  const peer: Member = {
    ...me,
    user_id: 'u_peer',
    username: 'peer',
    email: 'peer@example.test',
    role: 'member',
  };
  const members = new Map([
    [me.user_id, me],
    [peer.user_id, peer],
  ]);
  const store = new IdentityStore({ clock, orgId, lookupMember: (id) => members.get(id) });
  // Each member's own token, named after them.
  const tokenOf = (member: Member, scopes: MintTokenInput['scopes']) =>
    store.mintToken({
      principalUserId: member.user_id,
      name: member.username,
      scopes,
      createdBy: member.user_id,
    }).token;
  const liveToken = tokenOf(me, ['tasks:write', 'projects:write', 'teams:write', 'org:write']);
  const peerToken = tokenOf(peer, ['tasks:write', 'projects:read', 'teams:read', 'members:read']);

  const app = Fastify();
  app.addHook('preHandler', (request, _reply, done) => {
    if (!request.url.startsWith('/v1/')) return done();
    try {
      const auth = store.authenticate(request.headers.authorization);
      (request as typeof request & { auth?: unknown }).auth = auth;
      requireScope(auth, (request.routeOptions.config as { scope?: string | null }).scope);
      if (auth.kind === 'test' && request.method !== 'GET' && request.method !== 'HEAD') {
        throw new ProblemReply(
          403,
          'test-token-read-only',
          'Test token is read-only',
          'A test token cannot write.',
        );
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  });
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ProblemReply) {
      return reply
        .code(error.status)
        .type('application/problem+json')
        .send(error.body(request.url, request.id));
    }
    return reply.code(500).send({ message: error instanceof Error ? error.message : String(error) });
  });
  registerIdentityRoutes(app, {
    store,
    consentUserId: me.user_id,
    ...(options.oauthAutoApprove !== undefined ? { oauthAutoApprove: options.oauthAutoApprove } : {}),
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    clock,
    store,
    members,
    me,
    peer,
    liveToken,
    peerToken,
    stop: () => app.close(),
  };
}

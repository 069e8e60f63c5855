// The authorization server's HTTP face: GET/POST /oauth/authorize and POST
// /oauth/token, turning requests into calls on the authority and its answers
// and OAuthErrors into RFC 6749's shapes. Apart from the authority, which keeps
// the codes and grants and knows nothing of HTTP.
import formbody from '@fastify/formbody';
import type { FastifyInstance } from 'fastify';
import { ProblemReply } from '../problem';
import { type OAuthAuthority, OAuthError } from './oauth';
import { consentPage, errorPage, noScopeGranted, redirectTo } from './oauth-pages';

/**
 * GET/POST /oauth/authorize and POST /oauth/token, in their own plugin scope
 * so the form-body parser and the RFC 6749 error rendering stay here.
 */
export function registerOAuthRoutes(app: FastifyInstance, authority: OAuthAuthority): void {
  void app.register(async (scope) => {
    await scope.register(formbody);
    // Parser failures (bad content type, malformed body) answer in OAuth's own shape;
    // the server's own problems (rate limit, injected faults) go on to its handler.
    scope.setErrorHandler((error: unknown, request, reply) => {
      if (error instanceof ProblemReply) throw error;
      const status = (error as { statusCode?: number }).statusCode;
      const message = error instanceof Error ? error.message : String(error);
      const clientFault = status !== undefined && status < 500;
      const oauthError = new OAuthError(clientFault ? 'invalid_request' : 'server_error', message);
      if (request.url.startsWith('/oauth/authorize')) return errorPage(reply, oauthError);
      return reply
        .code(clientFault ? 400 : 500)
        .header('cache-control', 'no-store')
        .send({ error: oauthError.error, error_description: message });
    });

    scope.get('/oauth/authorize', { config: { operationId: 'oauth.authorize' } }, (request, reply) => {
      const checked = authority.checkAuthorize(request.query as Record<string, unknown>);
      if ('page' in checked) return errorPage(reply, checked.page);
      if ('redirect' in checked) {
        return redirectTo(reply, checked.redirectUri, {
          error: checked.redirect.error,
          error_description: checked.redirect.description,
          state: checked.state,
        });
      }
      const member = authority.consentingMember();
      if (!member || !member.is_active) {
        return redirectTo(reply, checked.ok.redirectUri, {
          error: 'access_denied',
          error_description: 'no active member is signed in',
          state: checked.ok.state,
        });
      }
      if (authority.autoApprove()) {
        const code = authority.issueCode(checked.ok, member.user_id);
        if (code === undefined) return noScopeGranted(reply, checked.ok);
        return redirectTo(reply, checked.ok.redirectUri, { code, state: checked.ok.state });
      }
      const { consentId, csrf } = authority.openConsent(checked.ok);
      return reply
        .header('cache-control', 'no-store')
        .header('x-frame-options', 'DENY')
        .type('text/html; charset=utf-8')
        .send(consentPage(member, checked.ok, consentId, csrf));
    });

    scope.post('/oauth/authorize', { config: { operationId: 'oauth.consent' } }, (request, reply) => {
      const form = (request.body ?? {}) as Record<string, unknown>;
      const consentId = form['consent_id'];
      const csrf = form['csrf_token'];
      const decision = form['decision'];
      const pending =
        typeof consentId === 'string' && typeof csrf === 'string'
          ? authority.takeConsent(consentId, csrf)
          : undefined;
      if (!pending) {
        return errorPage(
          reply,
          new OAuthError(
            'invalid_request',
            'the consent form is unknown, expired, already answered, or its CSRF field is wrong',
          ),
        );
      }
      const member = authority.consentingMember();
      if (decision !== 'approve' || !member || !member.is_active) {
        return redirectTo(reply, pending.redirectUri, {
          error: 'access_denied',
          error_description: 'the user denied the request',
          state: pending.state,
        });
      }
      // The page's boxes (absent from a form that offers none: all asked are granted).
      const ticked = form['scope'];
      const chosen =
        form['scopes_chosen'] === undefined
          ? undefined
          : (Array.isArray(ticked) ? ticked : [ticked]).filter((s): s is string => typeof s === 'string');
      const code = authority.issueCode(pending, member.user_id, chosen);
      if (code === undefined) return noScopeGranted(reply, pending);
      return redirectTo(reply, pending.redirectUri, { code, state: pending.state });
    });

    scope.post('/oauth/token', { config: { operationId: 'oauth.token' } }, (request, reply) => {
      void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      const contentType = request.headers['content-type'] ?? '';
      if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
        return reply.code(400).send({
          error: 'invalid_request',
          error_description: 'the token request must be application/x-www-form-urlencoded',
        });
      }
      try {
        return reply.send(authority.token((request.body ?? {}) as Record<string, unknown>));
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        if (error.status === 401) void reply.header('www-authenticate', 'Basic realm="oauth"');
        return reply.code(error.status).send({ error: error.error, error_description: error.description });
      }
    });
  });
}

// The OAuth pages a browser sees at /oauth/authorize: the consent page with a
// box per scope, the page for a request that cannot be sent back to the app,
// and the redirects that carry a code or an error back to it. Apart from the
// authority because it is rendering only: it holds no state and decides nothing.
import type { FastifyReply } from 'fastify';
import type { Member } from './identity-store';
import { type AuthorizeRequest, DESKTOP_CLIENT, type OAuthError } from './oauth';

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body><main>
${body}
</main></body></html>
`;
}

export function errorPage(reply: FastifyReply, error: OAuthError): FastifyReply {
  return reply
    .code(400)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      htmlPage(
        'Authorization refused',
        `<h1>This app cannot be authorized</h1>
<p>The request was refused and was not sent back to the app.</p>
<p><code id="error">${escapeHtml(error.error)}</code>: <span id="error_description">${escapeHtml(error.description)}</span></p>`,
      ),
    );
}

/** Every scope asked was withheld: nothing to grant, told as a denial (RFC 6749 4.1.2.1). */
export function noScopeGranted(reply: FastifyReply, request: AuthorizeRequest): FastifyReply {
  return redirectTo(reply, request.redirectUri, {
    error: 'access_denied',
    error_description: 'no scope was granted',
    state: request.state,
  });
}

export function redirectTo(
  reply: FastifyReply,
  redirectUri: string,
  params: Record<string, string | null>,
): FastifyReply {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  return reply.header('cache-control', 'no-store').redirect(url.toString(), 302);
}

export function consentPage(
  member: Member,
  request: AuthorizeRequest,
  consentId: string,
  csrf: string,
): string {
  // One box per scope, as real consent pages offer: the person may grant fewer than asked.
  const scopes = request.scopes
    .map(
      (s) =>
        `<li><label><input type="checkbox" name="scope" value="${escapeHtml(s)}" checked> <code>${escapeHtml(s)}</code></label></li>`,
    )
    .join('\n');
  return htmlPage(
    `Authorize ${DESKTOP_CLIENT.name}`,
    `<h1>Authorize ${escapeHtml(DESKTOP_CLIENT.name)}</h1>
<p>Signed in as <strong id="username">${escapeHtml(member.username)}</strong>.</p>
<form method="post" action="/oauth/authorize">
<p><strong>${escapeHtml(DESKTOP_CLIENT.name)}</strong> asks for access to your organization with these scopes:</p>
<ul id="scopes">
${scopes}
</ul>
<input type="hidden" name="scopes_chosen" value="1">
<input type="hidden" name="consent_id" value="${escapeHtml(consentId)}">
<input type="hidden" name="csrf_token" value="${escapeHtml(csrf)}">
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`,
  );
}

// Keeps secrets out of the sync log and its diagnostics: every token form the
// API client and the auth code know (through their own redaction), plus the
// values of credential-named fields in JSON, query strings and headers.
import { redactSecrets as redactApiSecrets } from '../api/errors';
import { redactSecrets as redactAuthSecrets, REDACTED } from '../auth/redaction';

/**
 * `key=value`, `"key": "value"` and `key: value` for keys that name a
 * credential. Values end at a quote, `&`, `,`, `;`, `}` or white space.
 */
const CREDENTIAL_FIELD =
  /(["']?\b(?:access_token|refresh_token|id_token|token|client_secret|password|code_verifier|code|authorization|cookie|set-cookie|api[_-]?key)\b["']?\s*[:=]\s*["']?)(?!\[redacted\])([^"'&\s,;}]+)/gi;

/** Any token-shaped string, even percent-encoded or split by an encoded separator. */
const TOKEN_PREFIX = /\b(?:svc|tsk)_(?:live|test)_[^\s"',;&}]*|\bsvcr_[^\s"',;&}]*/gi;

/** `text` with every secret we can recognise replaced by `[redacted]`. */
export function redactLogText(text: string, knownSecrets: readonly string[] = []): string {
  // The wide pattern first: the narrower ones stop at characters a token may carry
  // percent-encoded or after a dot, and would leave its tail behind.
  let out = text.replace(TOKEN_PREFIX, REDACTED);
  out = redactAuthSecrets(out, knownSecrets);
  out = redactApiSecrets(out, knownSecrets);
  return out.replace(CREDENTIAL_FIELD, `$1${REDACTED}`);
}

/** A JSON-like value with every string redacted, and values under credential-named keys removed whole. */
export function redactLogValue(value: unknown, knownSecrets: readonly string[] = []): unknown {
  if (typeof value === 'string') return redactLogText(value, knownSecrets);
  if (Array.isArray(value)) return value.map((item) => redactLogValue(item, knownSecrets));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = CREDENTIAL_KEY.test(key) ? REDACTED : redactLogValue(item, knownSecrets);
    }
    return out;
  }
  return value;
}

const CREDENTIAL_KEY =
  /^(?:access_token|refresh_token|id_token|token|client_secret|password|code_verifier|authorization|cookie|api[_-]?key|secret)$/i;

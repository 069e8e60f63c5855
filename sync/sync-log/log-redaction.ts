// Keeps secrets out of the sync log and its diagnostics: the live set of known
// secrets by value (in the shapes they travel in), every token form we know,
// and the values of credential-named fields in JSON, query strings and headers.
import { redactSecrets as redactApiSecrets } from '../api/errors';
import { redactSecrets as redactAuthSecrets, REDACTED } from '../auth/redaction';

/**
 * Key names that hold a credential, in any spelling (`refresh_token`,
 * `refreshToken`, `Refresh-Token`, `SVC_TOKEN`, `x-api-key`): the key ends in
 * one of these words. `code` (an OAuth authorization code) only as a whole key.
 */
const KEY_WORDS =
  '(?:[A-Za-z0-9_.-]*(?:token|secret|password|passwd|api[_-]?key|apikey|authorization|cookie|code[_-]?verifier|credentials?)s?|code)';
/** A quote, as sent or escaped once or more inside a JSON string. */
const QUOTE = String.raw`(?:\\*["'])`;
/** Header names whose whole value is secret, commas and semicolons included. */
const WHOLE_VALUE_KEY = /^(?:proxy-)?authorization$|cookie$/i;
/** HTTP authentication schemes: the scheme word stays (it helps support), the credentials go. */
const AUTH_SCHEME =
  /^(?:Basic|Bearer|DPoP|Digest|Negotiate|NTLM|Token|MAC|HOBA|Mutual|AWS4-HMAC-SHA256)(?=\s)/i;

/**
 * `key=value`, `"key": "value"`, `key: value`, `\"key\":\"value\"` (JSON inside
 * JSON) and `"key", "value"` (a rawHeaders array). A quoted value is redacted up
 * to its closing quote, whatever it holds (spaces, `;`, a leading space); an
 * unquoted one up to a separator, or for a header like Cookie up to the line's end.
 */
const CREDENTIAL_FIELD = new RegExp(
  String.raw`(?<![A-Za-z0-9_.%-])(${KEY_WORDS})(${QUOTE}?[ \t]*(?:[:=]|%3[Dd])[ \t]*|${QUOTE}[ \t]*,[ \t]*(?=${QUOTE}))` +
    String.raw`(?:(${QUOTE})([^\n]*?)(\3|\n|$)|(?!\[redacted\])([^\s"'\\&,;}\]]+))`,
  'gi',
);

/** `Authorization: Basic …`, `Cookie: a=1; b=2` as header lines (or `=`): the whole value, to the line's end. */
const HEADER_LINE =
  /(?<![A-Za-z0-9_.%-])((?:proxy-)?authorization|(?:set-)?cookie)([ \t]*[:=][ \t]*)(?!\\*["'])([^\n]+)/gi;
/** A value this module already redacted (alone or after its scheme word). */
const ALREADY_REDACTED = /^(?:[A-Za-z0-9-]+ )?\[redacted\]/;

/** `scheme://user:password@host`: the password goes, the user name stays. */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/:@"'?#]*:)([^\s/@"'?#]+)(@)/gi;

/** Credentials after an authentication scheme word, wherever the word is. */
const SCHEME_CREDENTIALS = /\b(Bearer|DPoP)([ \t]+)(?!\[redacted\])([A-Za-z0-9._~+/=%-]{8,})/gi;
const BASIC_CREDENTIALS = /\b(Basic[ \t]+)([A-Za-z0-9+/]{4,}={0,2})(?![A-Za-z0-9+/=])/g;

/**
 * Token shapes: the service's access tokens (current and former prefix, also
 * percent-encoded), refresh tokens and other bare opaque `svc_…` tokens, and
 * JWTs (a base64url JSON header always starts `eyJ`).
 */
const TOKEN_SHAPES = [
  /\b(?:svc|tsk)(?:_|%5[Ff])(?:live|test)(?:_|%5[Ff])[^\s"',;&}\\]*/gi,
  /\bsvcr?(?:_|%5[Ff])[A-Za-z0-9][A-Za-z0-9_~.%-]{15,}/g,
  /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*){1,3}/g,
];

/**
 * A run of text between separators; one holding percent-encoded bytes is
 * decoded, redacted, and kept decoded only when that redacted something. The
 * escape is looked for inside each run rather than in the pattern: a pattern
 * `[^…]*%XX[^…]*` restarts its scan at every character of a long run without
 * one (a 100 000-character id took 18 s), where this reads each run once.
 */
const TEXT_RUN = /[^\s"'<>]+/g;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;

/** `text` with every secret we can recognise replaced by `[redacted]`. */
export function redactLogText(text: string, knownSecrets: readonly string[] = []): string {
  let out = redactKnownSecrets(text, knownSecrets);
  out = out.replace(TEXT_RUN, (run) => {
    if (!PERCENT_ESCAPE.test(run)) return run;
    const decoded = percentDecoded(run);
    if (decoded === run) return run;
    const redacted = redactShapes(redactKnownSecrets(decoded, knownSecrets));
    return redacted === decoded ? run : redacted;
  });
  return redactShapes(out, knownSecrets);
}

/**
 * Room kept past a clip before redacting: longer than any secret we know the
 * shape or value of, so none can straddle the cut unseen (see redactClipped).
 */
const CLIP_MARGIN = 8192;

/**
 * `text` redacted and clipped to `max` characters (the last one an ellipsis
 * when cut). A long line is cut before it is scanned, so a hostile megabyte
 * costs what its first `max + CLIP_MARGIN` characters cost. The run of text
 * the first cut falls in is dropped when it starts past `max`: a secret cut
 * there would no longer be known by its value, and redacting what comes
 * before it can shorten the text enough to pull it into view. A run that
 * starts before `max` and reaches the cut is longer than the margin, so no
 * whole secret, and a token's shape is matched on its first characters.
 */
export function redactClipped(text: string, max: number, knownSecrets: readonly string[] = []): string {
  let source = text;
  if (text.length > max + CLIP_MARGIN) {
    source = text.slice(0, max + CLIP_MARGIN);
    const runStart = lastSeparatorIndex(source) + 1;
    if (runStart > max) source = source.slice(0, runStart);
  }
  const out = redactLogText(source, knownSecrets);
  return out.length > max || source.length < text.length ? `${out.slice(0, max - 1)}…` : out;
}

/** The index of the last character that ends a run of TEXT_RUN (-1 when none). */
function lastSeparatorIndex(text: string): number {
  for (let index = text.length - 1; index >= 0; index -= 1) {
    if (/[\s"'<>]/.test(text.charAt(index))) return index;
  }
  return -1;
}

function redactShapes(text: string, knownSecrets: readonly string[] = []): string {
  // The wide token patterns first: the narrower ones stop at characters a token
  // may carry percent-encoded or after a dot, and would leave its tail behind.
  let out = text;
  for (const shape of TOKEN_SHAPES) out = out.replace(shape, REDACTED);
  out = redactAuthSecrets(out, knownSecrets);
  out = redactApiSecrets(out, knownSecrets);
  out = out.replace(URL_PASSWORD, `$1${REDACTED}$3`);
  // Header lines first: their value runs to the line's end (every cookie, every word after the scheme).
  out = out.replace(HEADER_LINE, (whole, key: string, separator: string, value: string) =>
    ALREADY_REDACTED.test(value) ? whole : `${key}${separator}${redactedValue(key, value)}`,
  );
  out = out.replace(
    CREDENTIAL_FIELD,
    (
      whole,
      key: string,
      separator: string,
      open: string | undefined,
      quoted: string | undefined,
      close: string | undefined,
      bare: string | undefined,
    ) => {
      if (open !== undefined)
        return `${key}${separator}${open}${redactedValue(key, quoted ?? '')}${close ?? ''}`;
      // A header's unquoted value was redacted whole above.
      if (bare === undefined || bare === REDACTED || WHOLE_VALUE_KEY.test(key)) return whole;
      return `${key}${separator}${REDACTED}`;
    },
  );
  out = out.replace(SCHEME_CREDENTIALS, `$1$2${REDACTED}`);
  out = out.replace(BASIC_CREDENTIALS, (whole, scheme: string, credentials: string) =>
    isBasicCredentials(credentials) ? `${scheme}${REDACTED}` : whole,
  );
  return out;
}

/** A secret value redacted; for an Authorization header its scheme word is kept. */
function redactedValue(key: string, value: string): string {
  if (value.trim() === '' || value === REDACTED) return value;
  if (WHOLE_VALUE_KEY.test(key)) {
    const scheme = AUTH_SCHEME.exec(value.trimStart())?.[0];
    if (scheme !== undefined) return `${scheme} ${REDACTED}`;
  }
  return REDACTED;
}

/** Whether `Basic xxx` holds base64 of `user:password` (and not the English word before another). */
function isBasicCredentials(encoded: string): boolean {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  // Printable text only: random words decode to bytes that are not.
  return decoded.includes(':') && [...decoded].every((c) => c >= ' ' && c !== '\uFFFD');
}

/** Up to three rounds of percent-decoding (text encoded twice is common in nested URLs); invalid escapes stop it. */
function percentDecoded(text: string): string {
  let out = text;
  for (let round = 0; round < 3 && /%[0-9A-Fa-f]{2}/.test(out); round += 1) {
    try {
      out = decodeURIComponent(out);
    } catch {
      break;
    }
  }
  return out;
}

/**
 * Each known secret by value, as sent and in the forms it takes in transit:
 * without surrounding space, percent-encoded, escaped inside a JSON string.
 */
function redactKnownSecrets(text: string, knownSecrets: readonly string[]): string {
  if (knownSecrets.length === 0) return text;
  const forms = new Set<string>();
  for (const secret of knownSecrets) {
    for (const form of [
      secret,
      secret.trim(),
      encodeURIComponent(secret.trim()),
      JSON.stringify(secret.trim()).slice(1, -1),
    ]) {
      // Short values would blank out ordinary words; real secrets are long.
      if (form.length >= 8) forms.add(form);
    }
  }
  let out = text;
  // Longest first: a secret that contains another is replaced whole.
  for (const form of [...forms].sort((a, b) => b.length - a.length)) {
    if (out.includes(form)) out = out.split(form).join(REDACTED);
  }
  return out;
}

/** Whether an object key names a credential (any spelling: `access_token`, `accessToken`, `SVC_TOKEN`, `X-Api-Key`). */
export function isCredentialKey(key: string): boolean {
  const words = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  return /(?:token|secret|password|passwd|apikey|authorization|cookie|codeverifier|credentials?)s?$/.test(
    words,
  );
}

/**
 * A JSON-like value with every string redacted, and values under
 * credential-named keys removed whole; in a flat list of header names and
 * values (Node's `rawHeaders`) the value after a credential header name too.
 * Strings are clipped to `maxStringChars` first when given (redactClipped).
 */
export function redactLogValue(
  value: unknown,
  knownSecrets: readonly string[] = [],
  maxStringChars = Infinity,
): unknown {
  if (typeof value === 'string') {
    return maxStringChars === Infinity
      ? redactLogText(value, knownSecrets)
      : redactClipped(value, maxStringChars, knownSecrets);
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => {
      const before: unknown = index > 0 ? value[index - 1] : undefined;
      if (typeof before === 'string' && typeof item === 'string' && isCredentialKey(before)) {
        return redactedValue(before, item);
      }
      return redactLogValue(item, knownSecrets, maxStringChars);
    });
  }
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = isCredentialKey(key) ? REDACTED : redactLogValue(item, knownSecrets, maxStringChars);
    }
    return out;
  }
  return value;
}

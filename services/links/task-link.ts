// The app's own links, `svc-desktop://task/<task_id>`: made for "Copy link" and
// read back, as untrusted input, when the OS hands the app one it was opened with.
// Strict on purpose: whatever this refuses is shown as a notice and never acted on.

export const LINK_SCHEME = 'svc-desktop';

/** Longest link read at all: anything longer is refused before it is looked at. */
export const TASK_LINK_MAX_LENGTH = 2048;
/**
 * Longest task id a link may carry (decoded). The contract calls ids opaque
 * strings; the app's IPC takes up to 1000 characters, so a link never names an
 * id the app itself would refuse.
 */
export const TASK_ID_MAX_LENGTH = 1000;

export type TaskLink = { readonly kind: 'task'; readonly taskId: string };

/**
 * Why a link was refused: `not-ours` (another scheme, or no link at all),
 * `unsupported` (our scheme, naming something other than a task), `malformed`
 * (a task link that is broken or tampered with).
 */
export type TaskLinkProblem = 'not-ours' | 'unsupported' | 'malformed';

export type ParsedTaskLink =
  | { readonly ok: true; readonly link: TaskLink }
  | { readonly ok: false; readonly problem: TaskLinkProblem; readonly reason: string };

// RFC 3986 pchar minus '%' (escapes are checked on their own): unreserved and sub-delims, ':' and '@'.
const PATH_CHAR = /^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/;
// Scheme and host are case-insensitive (RFC 3986 §3.1, §3.2.2); the rest is read as written.
const SHAPE = /^svc-desktop:\/\/([^/?#]*)(\/[^?#]*)?([?#].*)?$/i;
// Characters that cannot be seen or that reorder what is seen (controls, bidi and other format characters).
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

const refuse = (problem: TaskLinkProblem, reason: string): ParsedTaskLink => ({ ok: false, problem, reason });

/** The link "Copy link" puts on the clipboard: the id percent-encoded, so any id survives the trip. */
export function formatTaskLink(taskId: string): string {
  return `${LINK_SCHEME}://task/${encodeURIComponent(taskId)}`;
}

/**
 * Reads `svc-desktop://task/<task_id>`. Refused: other schemes, other hosts,
 * user info or ports, a query or fragment, more or fewer than one path segment
 * (one trailing slash is forgiven: Windows and some browsers add it), raw
 * non-ASCII or spaces, bad or encoded-away escapes (`%2F`, `%00`), dot
 * segments, invisible characters, and lengths past the bounds above.
 */
export function parseTaskLink(raw: unknown): ParsedTaskLink {
  if (typeof raw !== 'string' || raw.length === 0) return refuse('not-ours', 'no link was given');
  if (raw.length > TASK_LINK_MAX_LENGTH) {
    return refuse('malformed', `the link is longer than ${TASK_LINK_MAX_LENGTH} characters`);
  }
  if (!raw.toLowerCase().startsWith(`${LINK_SCHEME}:`)) return refuse('not-ours', 'not an svc-desktop link');
  // A URI is ASCII without spaces (RFC 3986): anything else was not made by "Copy link".
  if (!/^[\x21-\x7e]+$/.test(raw)) {
    return refuse('malformed', 'the link holds spaces, control characters or unencoded non-ASCII text');
  }
  const shape = SHAPE.exec(raw);
  if (shape === null) return refuse('malformed', 'expected svc-desktop://task/<task id>');
  const [, host = '', path = '', queryOrFragment] = shape;
  if (host.toLowerCase() !== 'task') {
    return /^[a-z][a-z0-9-]*$/i.test(host)
      ? refuse('unsupported', `this app does not open "${host}" links`)
      : refuse('malformed', 'the link names no place the app knows');
  }
  if (queryOrFragment !== undefined) return refuse('malformed', 'a task link carries no query or fragment');

  const segments = path.split('/').slice(1);
  if (segments.length === 2 && segments[1] === '') segments.pop();
  if (segments.length !== 1) return refuse('malformed', 'a task link names exactly one task id');
  const encoded = segments[0] ?? '';
  if (encoded === '') return refuse('malformed', 'the link names no task id');

  for (let at = 0; at < encoded.length; at++) {
    const char = encoded.charAt(at);
    if (char === '%') {
      if (!/^[0-9A-Fa-f]{2}$/.test(encoded.slice(at + 1, at + 3))) {
        return refuse('malformed', 'the task id holds a broken %-escape');
      }
      at += 2;
    } else if (!PATH_CHAR.test(char)) {
      return refuse('malformed', `the task id holds "${char}", which a link must escape`);
    }
  }
  let taskId: string;
  try {
    taskId = decodeURIComponent(encoded);
  } catch {
    return refuse('malformed', 'the task id is not valid UTF-8 once decoded');
  }
  if (taskId.length > TASK_ID_MAX_LENGTH) {
    return refuse('malformed', `the task id is longer than ${TASK_ID_MAX_LENGTH} characters`);
  }
  // Escapes that decode to what the plain link may not hold: a hidden second segment or traversal.
  if (taskId.includes('/') || taskId.includes('\\')) {
    return refuse('malformed', 'the task id holds a slash');
  }
  if (taskId === '.' || taskId === '..') return refuse('malformed', 'the task id is a dot segment');
  if (INVISIBLE.test(taskId) || taskId.trim() !== taskId || taskId.trim() === '') {
    return refuse('malformed', 'the task id holds invisible characters or spaces at its ends');
  }
  return { ok: true, link: { kind: 'task', taskId } };
}

/**
 * The first of the app's links in a command line (how Windows and Linux hand
 * one to the app: the first launch's argv, or a second instance's). Anything
 * that starts with the scheme counts, well-formed or not, so a broken link
 * still gets its notice; null when there is none.
 */
export function linkInCommandLine(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.toLowerCase().startsWith(`${LINK_SCHEME}:`)) ?? null;
}

// "Copy diagnostics": the sync log as a text report someone can paste into a
// support request. Tokens are redacted (every form we know, and known secrets
// by value); people become stable pseudonyms; task content is removed.
import { createHash } from 'node:crypto';
import { redactLogText, redactLogValue } from './log-redaction';
import type { SyncLogEntry } from './sync-log';

export interface DiagnosticsInput {
  entries: readonly SyncLogEntry[];
  /** Facts about the app and account (version, platform, state, counts); values are redacted too. */
  context: Readonly<Record<string, string | number | boolean | null>>;
  /** Usernames, user ids, emails and display names known to be people's: replaced by pseudonyms. */
  people: readonly string[];
  /** Secrets known by value (tokens of the account). */
  secrets: readonly string[];
  /** Makes pseudonyms stable for one log and unguessable from a name (SyncLog.salt). */
  salt: string;
  generatedAt: string;
}

/** Keys whose values are people's writing: removed from details whole. */
const CONTENT_KEYS =
  /^(?:title|description|content|body|text|comment|comments|replies|notes|summary_text|name)$/i;
/** Keys whose values identify a person: pseudonymised. */
const PERSON_KEYS = /^(?:by|username|user|email|assignee|created_by|updated_by|author|for_user|user_id)$/i;
/** Query parameters kept as sent; every other value is removed (it may be a name or search words). */
const KEPT_QUERY = new Set(['limit', 'sort_by', 'sort_order']);

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;

export function pseudonymOf(value: string, salt: string): string {
  return `person-${createHash('sha256').update(`${salt}\u0000${value.toLowerCase()}`).digest('hex').slice(0, 8)}`;
}

export function diagnosticsReport(input: DiagnosticsInput): string {
  const people = [...new Set(input.people.filter((p) => p.trim().length >= 2))].sort(
    (a, b) => b.length - a.length,
  );
  const scrub = (text: string): string => {
    let out = redactLogText(text, input.secrets);
    out = out.replace(EMAIL, (email) => pseudonymOf(email, input.salt));
    for (const person of people) {
      out = out.replace(new RegExp(`(?<![A-Za-z0-9_])${escapeRegExp(person)}(?![A-Za-z0-9_])`, 'gi'), () =>
        pseudonymOf(person, input.salt),
      );
    }
    return out;
  };
  const scrubValue = (value: unknown, key: string | null): unknown => {
    if (key !== null && CONTENT_KEYS.test(key)) return '[removed]';
    if (typeof value === 'string')
      return key !== null && PERSON_KEYS.test(key) ? pseudonymOf(value, input.salt) : scrub(value);
    if (Array.isArray(value)) return value.map((item) => scrubValue(item, key));
    if (typeof value === 'object' && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrubValue(v, k)]));
    }
    return value;
  };

  const lines = [
    'svc-desktop sync diagnostics',
    `generated: ${input.generatedAt}`,
    ...Object.entries(input.context).map(([key, value]) => `${key}: ${scrub(String(value))}`),
    `entries: ${input.entries.length} (newest first; tokens redacted, people pseudonymised, task content removed)`,
    '',
  ];
  for (const entry of input.entries) {
    const request = [
      entry.method,
      entry.path === null ? null : scrubPath(entry.path, scrub),
      entry.status === null ? null : String(entry.status),
      entry.durationMs === null ? null : `${entry.durationMs}ms`,
      entry.requestId === null ? null : `request ${scrub(entry.requestId)}`,
    ].filter((part): part is string => part !== null);
    const message = scrubMessage(entry, scrub);
    const detail =
      entry.detail === null
        ? ''
        : ` ${JSON.stringify(scrubValue(redactLogValue(entry.detail, input.secrets), null))}`;
    lines.push(
      `${entry.at} ${entry.level.toUpperCase()} ${entry.kind}${entry.operation ? ` ${scrub(entry.operation)}` : ''}: ${message}${request.length > 0 ? ` [${request.join(' ')}]` : ''}${detail}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The query's values removed except paging and sorting; the path itself holds ids only. */
function scrubPath(path: string, scrub: (text: string) => string): string {
  const at = path.indexOf('?');
  if (at < 0) return scrub(path);
  const params = path
    .slice(at + 1)
    .split('&')
    .filter((pair) => pair !== '')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      let name = key;
      try {
        name = decodeURIComponent(key);
      } catch {
        // Left as sent.
      }
      if (KEPT_QUERY.has(name)) return scrub(pair);
      return `${scrub(key)}=${name === 'cursor' ? '[cursor]' : '[removed]'}`;
    });
  return `${scrub(path.slice(0, at))}?${params.join('&')}`;
}

/** Request lines repeat the path in the message: rebuilt from the scrubbed path instead. */
function scrubMessage(entry: SyncLogEntry, scrub: (text: string) => string): string {
  if (entry.path !== null && entry.message.includes(entry.path)) {
    return scrub(entry.message.split(entry.path).join(scrubPath(entry.path, scrub)));
  }
  return scrub(entry.message);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

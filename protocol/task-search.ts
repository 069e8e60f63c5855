// The search box's language (`status:blocked assignee:me "exact words"`),
// parsed into the service's task-list filter (task-list-query.ts) so that the
// mirror and `GET /v1/tasks` answer it alike; written back from a filter (the
// chips set one) and completed as one types. Pure and total: it never throws,
// and whatever it cannot map is a problem with a reason, over the characters
// it came from.
//
// Completion as one types is in task-search-completion.ts, from the same keys.
//
// Choices made where the service's vocabulary is narrower than the language:
// - Free words and "quoted phrases" are one search text, in order, joined by a
//   space: the service's `filter[search]` is a single substring.
// - `-key:value` (not) is the complement of the values within the key's closed
//   set (`-status:completed` is the other three statuses); keys whose values
//   are open (people, projects, teams, tags) cannot be excluded, nor words.
// - A key is given once (`priority:high,urgent` for either): the service ORs
//   values within a key, and a second `tag:` could only mean "and", which it
//   cannot answer.
// - `due<D` (strictly before) is `due_before` D minus one day, `due>D` is
//   `due_after` D plus one, because the service's bounds are inclusive;
//   `due<=D`, `due>=D` and `due:D` (that day) map as written.
// - `sprint:` is understood and refused with its reason: `GET /v1/tasks` has no
//   sprint filter, and a filter only the mirror answered would break the
//   promise that the list and the service answer the same query alike (and
//   could not be saved in a view, whose filters are the service's vocabulary).
//   A sprint's tasks are on its own screen.
import {
  CLOSED_VALUES,
  isValidDay,
  ME,
  NO_TEAM,
  type TaskListFilter,
  UNFILED_PROJECT,
} from './task-list-query';

/** The filter the language reaches: the task list's, with `search_fields` left to the caller. */
export type TaskSearchFilter = Omit<TaskListFilter, 'search_fields'>;

/** What names resolve against: the mirror's projects, teams, members and tags. */
export interface TaskSearchContext {
  projects: readonly { id: string; name: string }[];
  teams: readonly { id: string; name: string }[];
  /** Usernames. */
  members: readonly string[];
  tags: readonly string[];
}

export const EMPTY_SEARCH_CONTEXT: TaskSearchContext = { projects: [], teams: [], members: [], tags: [] };

/** A part of the text that was not applied, and why. Offsets are into the text. */
export interface TaskSearchProblem {
  from: number;
  to: number;
  text: string;
  message: string;
}

export interface ParsedTaskSearch {
  filter: TaskSearchFilter;
  problems: TaskSearchProblem[];
}

type EnumFilterKey = 'status' | 'priority' | 'task_type' | 'review' | 'created_via';
type NamedFilterKey = 'project' | 'team';
type Operator = ':' | '<' | '>' | '<=' | '>=';
type DateKind = {
  type: 'date';
  after: 'due_after' | 'created_after';
  before: 'due_before' | 'created_before';
};

export interface KeySpec {
  /** The word typed: `status`, `type`, `due`… */
  word: string;
  /** What the suggestion list says of it. */
  detail: string;
  kind:
    | { type: 'enum'; key: EnumFilterKey }
    | { type: 'named'; key: NamedFilterKey }
    | { type: 'assignee' }
    | { type: 'tag' }
    | DateKind
    | { type: 'sprint' };
}

export const KEYS: readonly KeySpec[] = [
  { word: 'status', detail: 'Status', kind: { type: 'enum', key: 'status' } },
  { word: 'priority', detail: 'Priority', kind: { type: 'enum', key: 'priority' } },
  { word: 'assignee', detail: 'Assigned to (me, a username)', kind: { type: 'assignee' } },
  { word: 'project', detail: 'Project name, or none', kind: { type: 'named', key: 'project' } },
  { word: 'team', detail: 'Team name, or none', kind: { type: 'named', key: 'team' } },
  { word: 'tag', detail: 'Carries the tag', kind: { type: 'tag' } },
  { word: 'type', detail: 'Task or bug', kind: { type: 'enum', key: 'task_type' } },
  {
    word: 'due',
    detail: 'Due: overdue, a day, or <, >, <=, >= a day',
    kind: { type: 'date', after: 'due_after', before: 'due_before' },
  },
  {
    word: 'created',
    detail: 'Created: a day, or <, >, <=, >= a day',
    kind: { type: 'date', after: 'created_after', before: 'created_before' },
  },
  { word: 'review', detail: 'Review state, or none', kind: { type: 'enum', key: 'review' } },
  {
    word: 'via',
    detail: 'Created via app, api, sdk, mcp, or none',
    kind: { type: 'enum', key: 'created_via' },
  },
  { word: 'sprint', detail: 'Not a list filter: open the sprint', kind: { type: 'sprint' } },
];

/** Other spellings a person may reach for: the service's own key names among them. */
const ALIASES: Readonly<Record<string, string>> = {
  tags: 'tag',
  task_type: 'type',
  created_via: 'via',
  is: 'status',
};

export function keySpec(word: string): KeySpec | undefined {
  const lower = word.toLowerCase();
  const name = ALIASES[lower] ?? lower;
  return KEYS.find((spec) => spec.word === name);
}

const KEY_WORDS = KEYS.map((spec) => spec.word).join(', ');

// ---------------------------------------------------------------------------
// Tokens

interface Token {
  from: number;
  to: number;
  raw: string;
}

/** Splits on white space outside double quotes; an unclosed quote runs to the end (one is still typing). */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    while (i < text.length && /\s/.test(text[i] as string)) i++;
    if (i >= text.length) break;
    const from = i;
    let quoted = false;
    while (i < text.length && (quoted || !/\s/.test(text[i] as string))) {
      if (text[i] === '"') quoted = !quoted;
      i++;
    }
    tokens.push({ from, to: i, raw: text.slice(from, i) });
  }
  return tokens;
}

export const KEYED = /^([A-Za-z_]+)(<=|>=|:|<|>)([\s\S]*)$/;

/** The values of `a,"b c",d`: split on commas outside quotes, quotes removed. */
export function splitValues(raw: string): string[] {
  const values: string[] = [];
  let current = '';
  let quoted = false;
  for (const ch of raw) {
    if (ch === '"') quoted = !quoted;
    else if (ch === ',' && !quoted) {
      values.push(current);
      current = '';
    } else current += ch;
  }
  values.push(current);
  return values.map((v) => v.trim());
}

export const unquote = (raw: string) => raw.replace(/"/g, '');

// ---------------------------------------------------------------------------
// Parsing

function normalizeEnum(value: string): string {
  return value.toLowerCase().replace(/[\s-]+/g, '_');
}

function orList(values: readonly string[]): string {
  if (values.length <= 1) return values.join('');
  return `${values.slice(0, -1).join(', ')} or ${values[values.length - 1] as string}`;
}

function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** What a keyed token sets, or why it cannot. */
type Outcome = { set: Partial<TaskSearchFilter> } | { problem: string };

function resolveEnum(spec: KeySpec, key: EnumFilterKey, values: string[], negated: boolean): Outcome {
  const allowed: readonly string[] = CLOSED_VALUES[key];
  const chosen: string[] = [];
  for (const value of values) {
    const known = allowed.find((a) => a === normalizeEnum(value));
    if (known === undefined) return { problem: `${spec.word} cannot be '${value}': ${orList(allowed)}` };
    if (!chosen.includes(known)) chosen.push(known);
  }
  if (!negated) return { set: { [key]: chosen } };
  const rest = allowed.filter((a) => !chosen.includes(a));
  if (rest.length === 0) return { problem: `-${spec.word} leaves no ${spec.word} to match` };
  return { set: { [key]: rest } };
}

function resolveNamed(
  spec: KeySpec,
  key: NamedFilterKey,
  values: string[],
  context: TaskSearchContext,
): Outcome {
  const records = key === 'project' ? context.projects : context.teams;
  const nullToken = key === 'project' ? UNFILED_PROJECT : NO_TEAM;
  const ids: string[] = [];
  for (const value of values) {
    const lower = value.toLowerCase();
    let found: string[];
    if (lower === 'none' || value === nullToken) found = [nullToken];
    else {
      const byId = records.filter((r) => r.id === value);
      found = (byId.length > 0 ? byId : records.filter((r) => r.name.toLowerCase() === lower)).map(
        (r) => r.id,
      );
    }
    if (found.length === 0) return { problem: `no ${spec.word} is named '${value}'` };
    for (const id of found) if (!ids.includes(id)) ids.push(id);
  }
  return { set: { [key]: ids } };
}

function resolveAmong(
  values: string[],
  known: readonly string[],
  missing: (v: string) => string,
): Outcome | string[] {
  const found: string[] = [];
  for (const value of values) {
    // Exact first (tags and usernames are case-sensitive), then every case-insensitive match.
    const lower = value.toLowerCase();
    const exact = known.includes(value) ? [value] : known.filter((k) => k.toLowerCase() === lower);
    if (exact.length === 0) return { problem: missing(value) };
    for (const k of exact) if (!found.includes(k)) found.push(k);
  }
  return found;
}

function resolveDate(spec: KeySpec, { after, before }: DateKind, op: Operator, raw: string): Outcome {
  const value = unquote(raw).trim();
  if (op === ':' && spec.word === 'due' && value.toLowerCase() === 'overdue')
    return { set: { overdue: true } };
  if (!isValidDay(value)) {
    const overdue = spec.word === 'due' ? 'overdue or ' : '';
    return { problem: `${spec.word}${op} takes ${overdue}a day written YYYY-MM-DD, not '${value}'` };
  }
  switch (op) {
    case ':':
      return { set: { [after]: value, [before]: value } };
    case '<=':
      return { set: { [before]: value } };
    case '>=':
      return { set: { [after]: value } };
    // The service's bounds include their day: strictly before D is on or before the day before.
    case '<':
      return { set: { [before]: addDays(value, -1) } };
    case '>':
      return { set: { [after]: addDays(value, 1) } };
  }
}

function resolveKeyed(
  spec: KeySpec,
  op: Operator,
  rawValue: string,
  negated: boolean,
  context: TaskSearchContext,
): Outcome {
  const kind = spec.kind;
  if (kind.type === 'sprint') {
    return {
      problem:
        "the task list cannot filter by sprint (the service's list has no such filter): open the sprint under its team in the sidebar",
    };
  }
  if (kind.type === 'date') {
    if (negated) return { problem: `-${spec.word} cannot be excluded: use < or > instead` };
    return resolveDate(spec, kind, op, rawValue);
  }
  if (op !== ':') return { problem: `${spec.word} takes ':', not '${op}'` };
  const values = splitValues(rawValue);
  if (values.some((v) => v === '')) return { problem: `${spec.word}: needs a value` };
  if (negated && kind.type !== 'enum') {
    return { problem: `-${spec.word} cannot be excluded: only status, priority, type, review and via can` };
  }
  switch (kind.type) {
    case 'enum':
      return resolveEnum(spec, kind.key, values, negated);
    case 'named':
      return resolveNamed(spec, kind.key, values, context);
    case 'assignee': {
      const people = values.filter((v) => v.toLowerCase() !== ME);
      const found = resolveAmong(people, context.members, (v) => `no member is called '${v}'`);
      if (!Array.isArray(found)) return found;
      return { set: { assignee: [...(people.length < values.length ? [ME] : []), ...found] } };
    }
    case 'tag': {
      const found = resolveAmong(values, context.tags, (v) => `no task carries the tag '${v}'`);
      return Array.isArray(found) ? { set: { tags: found } } : found;
    }
  }
}

/** Parses the search box's text. Never throws: what it cannot apply is in `problems`, the rest in `filter`. */
export function parseTaskSearch(text: string, context: TaskSearchContext): ParsedTaskSearch {
  const filter: TaskSearchFilter = {};
  const problems: TaskSearchProblem[] = [];
  const words: string[] = [];
  const problem = (token: Token, message: string) =>
    problems.push({ from: token.from, to: token.to, text: token.raw, message });

  for (const token of tokenize(text)) {
    const raw = token.raw;
    if (raw.startsWith('"')) {
      const phrase = unquote(raw);
      if (phrase !== '') words.push(phrase);
      continue;
    }
    const negated = raw.length > 1 && raw.startsWith('-');
    const body = negated ? raw.slice(1) : raw;
    const keyed = KEYED.exec(body);
    if (!keyed) {
      if (negated) problem(token, `the search cannot exclude words: put "${raw}" in quotes to search for it`);
      else words.push(unquote(raw));
      continue;
    }
    const [, word = '', op = ':', value = ''] = keyed;
    const spec = keySpec(word);
    if (!spec) {
      problem(token, `unknown key '${word}' (keys: ${KEY_WORDS}); put text with a colon in quotes`);
      continue;
    }
    const outcome = resolveKeyed(spec, op as Operator, value, negated, context);
    if ('problem' in outcome) {
      problem(token, outcome.problem);
      continue;
    }
    const taken = (Object.keys(outcome.set) as (keyof TaskSearchFilter)[]).find(
      (k) => filter[k] !== undefined,
    );
    if (taken !== undefined) {
      problem(token, `${spec.word} is given twice: list the values once, separated by commas`);
      continue;
    }
    Object.assign(filter, outcome.set);
  }
  const search = words.join(' ');
  if (search.trim() !== '') filter.search = search;
  return { filter, problems };
}

// ---------------------------------------------------------------------------
// Writing a filter back as text (the chips rewrite the query)

export function quoted(value: string): string {
  return /[\s,":<>]/.test(value) || value === '' ? `"${value}"` : value;
}

/** A name that resolves back to this id alone; otherwise the id itself. */
export function nameOf(id: string, records: readonly { id: string; name: string }[]): string {
  const record = records.find((r) => r.id === id);
  // `none` is the word for no project or team, and a quote cannot be written inside quotes.
  if (!record || record.name.includes('"') || record.name.toLowerCase() === 'none') return id;
  const lower = record.name.toLowerCase();
  const same = records.filter((r) => r.name.toLowerCase() === lower || r.id === record.name);
  return same.length === 1 ? record.name : id;
}

function enumTerm(word: string, key: EnumFilterKey, values: readonly string[]): string {
  const allowed: readonly string[] = CLOSED_VALUES[key];
  const rest = allowed.filter((a) => !values.includes(a));
  // The shorter of the two ways to say it: three statuses of four read better as one excluded.
  if (rest.length > 0 && rest.length < values.length) return `-${word}:${rest.join(',')}`;
  // In the set's own order (the workflow's, low to urgent), whichever order the chips were pressed in.
  const known = allowed.filter((a) => values.includes(a));
  return `${word}:${[...known, ...values.filter((v) => !allowed.includes(v))].join(',')}`;
}

function dateTerms(word: string, after: string | undefined, before: string | undefined): string[] {
  if (after !== undefined && after === before) return [`${word}:${after}`];
  return [
    ...(after !== undefined ? [`${word}>=${after}`] : []),
    ...(before !== undefined ? [`${word}<=${before}`] : []),
  ];
}

/**
 * The text that parses back to `filter` (given the same context): what the
 * search box shows after a chip is set.
 */
export function formatTaskSearch(filter: TaskSearchFilter, context: TaskSearchContext): string {
  const terms: string[] = [];
  const named = (records: readonly { id: string; name: string }[], nullToken: string) => (id: string) =>
    id === nullToken ? 'none' : quoted(nameOf(id, records));
  if (filter.status?.length) terms.push(enumTerm('status', 'status', filter.status));
  if (filter.priority?.length) terms.push(enumTerm('priority', 'priority', filter.priority));
  if (filter.assignee?.length) terms.push(`assignee:${filter.assignee.map(quoted).join(',')}`);
  if (filter.project?.length)
    terms.push(`project:${filter.project.map(named(context.projects, UNFILED_PROJECT)).join(',')}`);
  if (filter.team?.length) terms.push(`team:${filter.team.map(named(context.teams, NO_TEAM)).join(',')}`);
  if (filter.tags?.length) terms.push(`tag:${filter.tags.map(quoted).join(',')}`);
  if (filter.task_type?.length) terms.push(enumTerm('type', 'task_type', filter.task_type));
  if (filter.overdue) terms.push('due:overdue');
  terms.push(...dateTerms('due', filter.due_after, filter.due_before));
  terms.push(...dateTerms('created', filter.created_after, filter.created_before));
  if (filter.review?.length) terms.push(enumTerm('review', 'review', filter.review));
  if (filter.created_via?.length) terms.push(enumTerm('via', 'created_via', filter.created_via));
  if (filter.search !== undefined && filter.search.trim() !== '') terms.push(searchText(filter.search));
  return terms.join(' ');
}

/** Free text as typed when it reads back as the same words, else as one quoted phrase. */
function searchText(search: string): string {
  const plain = search
    .split(' ')
    .every((w) => w !== '' && !w.includes('"') && !w.startsWith('-') && !KEYED.test(w));
  if (plain || search.includes('"')) return search;
  return `"${search}"`;
}

import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CLOSED_VALUES, parseTaskListQuery, TASK_FILTER_KEYS } from './task-list-query';
import {
  formatTaskSearch,
  parseTaskSearch,
  type TaskSearchContext,
  type TaskSearchFilter,
} from './task-search';
import { completeTaskSearch } from './task-search-completion';

const context: TaskSearchContext = {
  projects: [
    { id: 'prj_web', name: 'Web app' },
    { id: 'prj_api', name: 'API' },
    { id: 'prj_ops1', name: 'Ops' },
    { id: 'prj_ops2', name: 'ops' },
    { id: 'prj_none', name: 'None' },
  ],
  teams: [
    { id: 'team_core', name: 'Core' },
    { id: 'team_growth', name: 'Growth team' },
  ],
  members: ['grace', 'Linus', 'ada'],
  tags: ['billing', 'ux', 'UX', 'needs review', 'a,b'],
};

const parse = (text: string) => parseTaskSearch(text, context);

/** The pairs `GET /v1/tasks` would be sent for a parsed filter. */
function params(filter: TaskSearchFilter): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of TASK_FILTER_KEYS) {
    const value = filter[key as keyof TaskSearchFilter];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value) pairs.push([`filter[${key}]`, v]);
    else pairs.push([`filter[${key}]`, String(value)]);
  }
  return pairs;
}

describe('parseTaskSearch maps the language onto the task list filters', () => {
  test.each<[string, TaskSearchFilter]>([
    ['status:blocked', { status: ['blocked'] }],
    ['STATUS:Blocked', { status: ['blocked'] }],
    ['status:"not started"', { status: ['not_started'] }],
    ['status:in-progress', { status: ['in_progress'] }],
    ['is:completed', { status: ['completed'] }],
    ['assignee:me', { assignee: ['me'] }],
    ['assignee:me,linus', { assignee: ['me', 'Linus'] }],
    ['priority:high,urgent', { priority: ['high', 'urgent'] }],
    ['tag:billing', { tags: ['billing'] }],
    // Tags are case-sensitive: an exact one is taken alone, otherwise every case of it.
    ['tag:UX', { tags: ['UX'] }],
    ['tags:Ux', { tags: ['ux', 'UX'] }],
    ['tag:"needs review","a,b"', { tags: ['needs review', 'a,b'] }],
    ['project:"Web app"', { project: ['prj_web'] }],
    ['project:"web APP",none', { project: ['prj_web', '__unfiled__'] }],
    ['project:prj_api', { project: ['prj_api'] }],
    // Two projects of one name: either.
    ['project:ops', { project: ['prj_ops1', 'prj_ops2'] }],
    ['team:"Growth team"', { team: ['team_growth'] }],
    ['team:none', { team: ['__none__'] }],
    ['type:bug', { task_type: ['bug'] }],
    ['task_type:task', { task_type: ['task'] }],
    ['review:pending,none', { review: ['pending', 'none'] }],
    ['via:api', { created_via: ['api'] }],
    ['created_via:mcp', { created_via: ['mcp'] }],
    ['due:overdue', { overdue: true }],
    // Strictly before 1 December is on or before 30 November: the service's bounds are inclusive.
    ['due<2026-12-01', { due_before: '2026-11-30' }],
    ['due<=2026-12-01', { due_before: '2026-12-01' }],
    ['due>2026-12-31', { due_after: '2027-01-01' }],
    ['due>=2026-03-01', { due_after: '2026-03-01' }],
    ['created>2024-02-28', { created_after: '2024-02-29' }],
    ['created<2026-03-01', { created_before: '2026-02-28' }],
    ['due:2026-05-09', { due_after: '2026-05-09', due_before: '2026-05-09' }],
    ['due>2026-01-01 due<2026-02-01', { due_after: '2026-01-02', due_before: '2026-01-31' }],
    ['due:overdue due>2026-01-01', { overdue: true, due_after: '2026-01-02' }],
    ['-status:completed', { status: ['not_started', 'in_progress', 'blocked'] }],
    ['-priority:low,medium', { priority: ['high', 'urgent'] }],
    ['-review:none', { review: ['pending', 'accepted', 'rejected'] }],
    ['-type:bug', { task_type: ['task'] }],
    ['"an exact phrase"', { search: 'an exact phrase' }],
    ['login page', { search: 'login page' }],
    ['login status:blocked page', { status: ['blocked'], search: 'login page' }],
    ['"a: b" c', { search: 'a: b c' }],
    ['"-x" 100%', { search: '-x 100%' }],
    ['  ', {}],
    ['""', {}],
    ['-', { search: '-' }],
  ])('%s', (text, filter) => {
    const parsed = parse(text);
    expect(parsed.problems).toEqual([]);
    expect(parsed.filter).toEqual(filter);
  });

  test.each<[string, string, string, TaskSearchFilter]>([
    ['colour:red status:blocked', 'colour:red', "unknown key 'colour'", { status: ['blocked'] }],
    [
      'status:done',
      'status:done',
      "status cannot be 'done': not_started, in_progress, blocked or completed",
      {},
    ],
    ['type:goal', 'type:goal', "type cannot be 'goal'", {}],
    ['project:"Mobile" tag:ux', 'project:"Mobile"', "no project is named 'Mobile'", { tags: ['ux'] }],
    ['team:Design', 'team:Design', "no team is named 'Design'", {}],
    ['assignee:nobody', 'assignee:nobody', "no member is called 'nobody'", {}],
    ['tag:nope', 'tag:nope', "no task carries the tag 'nope'", {}],
    ['status:', 'status:', 'status: needs a value', {}],
    ['priority:high,', 'priority:high,', 'priority: needs a value', {}],
    ['-assignee:me', '-assignee:me', '-assignee cannot be excluded', {}],
    ['-tag:billing', '-tag:billing', '-tag cannot be excluded', {}],
    ['-due:overdue', '-due:overdue', '-due cannot be excluded', {}],
    [
      '-status:not_started,in_progress,blocked,completed',
      '-status:not_started,in_progress,blocked,completed',
      'leaves no status',
      {},
    ],
    ['-login', '-login', 'the search cannot exclude words', {}],
    ['due<tomorrow', 'due<tomorrow', "due< takes overdue or a day written YYYY-MM-DD, not 'tomorrow'", {}],
    ['created:overdue', 'created:overdue', "created: takes a day written YYYY-MM-DD, not 'overdue'", {}],
    ['due<2026-02-30', 'due<2026-02-30', 'a day written YYYY-MM-DD', {}],
    ['status>blocked', 'status>blocked', "status takes ':', not '>'", {}],
    ['sprint:current', 'sprint:current', 'the task list cannot filter by sprint', {}],
    ['status:blocked status:completed', 'status:completed', 'status is given twice', { status: ['blocked'] }],
    [
      'due:2026-01-01 due<2026-02-01',
      'due<2026-02-01',
      'due is given twice',
      { due_after: '2026-01-01', due_before: '2026-01-01' },
    ],
    ['http://example.com', 'http://example.com', "unknown key 'http'", {}],
  ])('%s: reports %s and applies the rest', (text, part, message, filter) => {
    const parsed = parse(text);
    expect(parsed.problems).toHaveLength(1);
    const [problem] = parsed.problems;
    expect(problem?.text).toBe(part);
    expect(text.slice(problem?.from, problem?.to)).toBe(part);
    expect(problem?.message).toContain(message);
    expect(parsed.filter).toEqual(filter);
  });

  test('an unknown key names the keys there are and how to search for the text instead', () => {
    expect(parse('owner:me').problems[0]?.message).toBe(
      "unknown key 'owner' (keys: status, priority, assignee, project, team, tag, type, due, created, review, via, sprint); put text with a colon in quotes",
    );
  });
});

// Generated cases: any text, and any filter the chips can set.

const enumValues = (key: keyof typeof CLOSED_VALUES) =>
  fc.uniqueArray(fc.constantFrom(...CLOSED_VALUES[key]), { minLength: 1 });
const some = <T>(values: readonly T[]) =>
  fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 });
const day = fc
  .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2040-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString().slice(0, 10));
const searchWords = fc
  .array(
    fc.oneof(
      fc.constantFrom('login', 'status:blocked', '-x', 'a:b', '100%', 'ü', 'due<2026', '"'),
      fc.string({ minLength: 1, maxLength: 6 }),
    ),
    { minLength: 1, maxLength: 3 },
  )
  .map((words) => words.map((w) => w.replace(/\s+/g, '')).filter((w) => w !== '' && !w.includes('"')))
  .filter((words) => words.length > 0)
  .map((words) => words.join(' '));

const filters: fc.Arbitrary<TaskSearchFilter> = fc.record(
  {
    status: enumValues('status'),
    priority: enumValues('priority'),
    task_type: enumValues('task_type'),
    review: enumValues('review'),
    created_via: enumValues('created_via'),
    assignee: some(['me', ...context.members]),
    project: some([...context.projects.map((p) => p.id), '__unfiled__']),
    team: some([...context.teams.map((t) => t.id), '__none__']),
    tags: some(context.tags),
    due_after: day,
    due_before: day,
    created_after: day,
    created_before: day,
    overdue: fc.constant(true),
    search: searchWords,
  },
  { requiredKeys: [] },
);

/** A filter with each key's values sorted: the service ORs them, so their order means nothing. */
function sameValues(filter: TaskSearchFilter): TaskSearchFilter {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(filter))
    out[key] = Array.isArray(value) ? [...value].sort() : value;
  return out;
}

describe('generated cases', () => {
  test('any text parses without throwing, and every problem names the characters it came from', () => {
    const pieces = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        'status:',
        'due<',
        '-',
        '"',
        ',',
        'project:"Web',
        'tag:',
        ' ',
        'sprint:current',
        '-priority:',
      ),
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 8 }), (parts) => {
        const text = parts.join('');
        const parsed = parse(text);
        for (const problem of parsed.problems) {
          expect(text.slice(problem.from, problem.to)).toBe(problem.text);
          expect(problem.message.length).toBeGreaterThan(0);
        }
        // Whatever was applied is a query the service accepts.
        expect(() => parseTaskListQuery(params(parsed.filter))).not.toThrow();
      }),
      { numRuns: 2000, seed: 24 },
    );
  });

  test('the text written for any filter parses back to that filter, with no problem', () => {
    fc.assert(
      fc.property(filters, (filter) => {
        const text = formatTaskSearch(filter, context);
        const parsed = parse(text);
        expect(parsed.problems, text).toEqual([]);
        expect(sameValues(parsed.filter), text).toEqual(sameValues(filter));
      }),
      { numRuns: 2000, seed: 2411 },
    );
  });
});

describe('formatTaskSearch', () => {
  test.each<[TaskSearchFilter, string]>([
    [{ status: ['blocked'] }, 'status:blocked'],
    [{ status: ['not_started', 'in_progress', 'blocked'] }, '-status:completed'],
    [{ status: ['completed', 'not_started'] }, 'status:not_started,completed'],
    [{ project: ['prj_web', '__unfiled__'] }, 'project:"Web app",none'],
    // Names two projects share, or the word none, are written as the id so that they read back as one.
    [{ project: ['prj_ops1', 'prj_none'] }, 'project:prj_ops1,prj_none'],
    [{ project: ['prj_gone'] }, 'project:prj_gone'],
    [{ due_after: '2026-01-01', due_before: '2026-01-01' }, 'due:2026-01-01'],
    [{ due_before: '2026-11-30', overdue: true }, 'due:overdue due<=2026-11-30'],
    [{ search: 'login page', assignee: ['me'] }, 'assignee:me login page'],
    [{ search: 'a:b' }, '"a:b"'],
  ])('%j is %s', (filter, text) => {
    expect(formatTaskSearch(filter, context)).toBe(text);
  });
});

describe('completeTaskSearch', () => {
  const labels = (text: string, caret = text.length) =>
    completeTaskSearch(text, caret, context)?.suggestions.map((s) => s.label) ?? null;
  const apply = (text: string, index = 0, caret = text.length) => {
    const completion = completeTaskSearch(text, caret, context);
    const suggestion = completion?.suggestions[index];
    if (!completion || !suggestion) throw new Error(`nothing to complete in '${text}'`);
    return text.slice(0, completion.from) + suggestion.insert + text.slice(completion.to);
  };

  test('keys complete from their first letters, and only closed sets after a minus', () => {
    expect(labels('st')).toEqual(['status:']);
    expect(labels('login p')).toEqual(['priority:', 'project:']);
    expect(labels('-')).toEqual(['-status:', '-priority:', '-type:', '-review:', '-via:']);
    expect(apply('login -pr')).toBe('login -priority:');
    // Sprint is not offered: it is no filter of the list.
    expect(labels('sp')).toBeNull();
  });

  test("values complete from the key's closed set or from the mirror's names, quoted when they must be", () => {
    expect(labels('status:')).toEqual(['not_started', 'in_progress', 'blocked', 'completed']);
    expect(apply('status:bl')).toBe('status:blocked ');
    expect(apply('project:web')).toBe('project:"Web app" ');
    expect(labels('team:')).toEqual(['none', 'Core', 'Growth team']);
    expect(labels('assignee:')).toEqual(['me', 'grace', 'Linus', 'ada']);
    expect(labels('due:')).toEqual(['overdue']);
    // Starting with the letters first, then containing them.
    expect(labels('tag:b')).toEqual(['billing', 'a,b']);
    expect(labels('tag:u')).toEqual(['ux', 'UX']);
  });

  test('after a comma only the value being typed is replaced, and values already listed are not offered again', () => {
    expect(labels('priority:high,')).toEqual(['low', 'medium', 'urgent']);
    expect(apply('priority:high,u status:blocked', 0, 'priority:high,u'.length)).toBe(
      'priority:high,urgent status:blocked',
    );
  });

  test('nothing is offered for a plain word, a phrase, a date or a value nothing matches', () => {
    expect(labels('login')).toBeNull();
    expect(labels('"status')).toBeNull();
    expect(labels('due<20')).toBeNull();
    expect(labels('status:zz')).toBeNull();
    expect(labels('status:blocked ', 15)).toBeNull();
  });
});

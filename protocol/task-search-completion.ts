// Completion of the search box's language as one types (task-search.ts):
// keys while a key is typed, then its values, names as the mirror knows them.
import { CLOSED_VALUES, ME } from './task-list-query';
import {
  KEYED,
  KEYS,
  type KeySpec,
  keySpec,
  nameOf,
  quoted,
  splitValues,
  type TaskSearchContext,
  tokenize,
  unquote,
} from './task-search';

export interface TaskSearchSuggestion {
  /** What the list shows. */
  label: string;
  detail: string;
  /** Replaces the text from `from` to `to`. */
  insert: string;
}

export interface TaskSearchCompletion {
  from: number;
  to: number;
  suggestions: TaskSearchSuggestion[];
}

function valueChoices(spec: KeySpec, context: TaskSearchContext): { value: string; detail: string }[] {
  const kind = spec.kind;
  switch (kind.type) {
    case 'enum':
      return CLOSED_VALUES[kind.key].map((value) => ({ value, detail: spec.detail }));
    case 'named': {
      const records = kind.key === 'project' ? context.projects : context.teams;
      return [
        { value: 'none', detail: `No ${spec.word}` },
        ...records.map((r) => ({
          value: nameOf(r.id, records),
          detail: kind.key === 'project' ? 'Project' : 'Team',
        })),
      ];
    }
    case 'assignee':
      return [{ value: ME, detail: 'You' }, ...context.members.map((m) => ({ value: m, detail: 'Member' }))];
    case 'tag':
      return context.tags.map((value) => ({ value, detail: 'Tag' }));
    case 'date':
      return spec.word === 'due' ? [{ value: 'overdue', detail: 'Due before today and not done' }] : [];
    case 'sprint':
      return [];
  }
}

const MAX_SUGGESTIONS = 12;

/**
 * The suggestions for the token the caret ends: keys while the key is typed,
 * then the key's values (names as the mirror knows them). Null when there is
 * nothing to offer (a plain word, a quoted phrase, a date being typed).
 */
export function completeTaskSearch(
  text: string,
  caret: number,
  context: TaskSearchContext,
): TaskSearchCompletion | null {
  const token = tokenize(text).find((t) => t.from < caret && caret <= t.to);
  if (!token || token.raw.startsWith('"')) return null;
  const typed = text.slice(token.from, caret);
  const negated = typed.startsWith('-');
  const body = negated ? typed.slice(1) : typed;
  const sign = negated ? '-' : '';
  const keyed = KEYED.exec(body);
  if (!keyed) {
    if (!/^[A-Za-z_]*$/.test(body)) return null;
    const lower = body.toLowerCase();
    // Only keys with a closed set of values can be excluded; sprint is no filter at all.
    const offered = KEYS.filter((spec) =>
      negated ? spec.kind.type === 'enum' : spec.kind.type !== 'sprint',
    );
    const suggestions = offered
      .filter((spec) => spec.word.startsWith(lower))
      .map((spec) => ({
        label: `${sign}${spec.word}:`,
        detail: spec.detail,
        insert: `${sign}${spec.word}:`,
      }));
    return suggestions.length === 0 ? null : { from: token.from, to: token.to, suggestions };
  }
  const [, word = '', op = ':', rawValue = ''] = keyed;
  const spec = keySpec(word);
  if (!spec || op !== ':') return null;
  // Only the value after the last comma is being typed; the ones before stay.
  const lastComma = rawValue.lastIndexOf(',');
  const before = lastComma < 0 ? [] : splitValues(rawValue.slice(0, lastComma));
  const partial = unquote(rawValue.slice(lastComma + 1)).toLowerCase();
  const from = caret - (rawValue.length - lastComma - 1);
  const seen = new Set(before.map((v) => v.toLowerCase()));
  const choices = valueChoices(spec, context).filter(
    (c) => !seen.has(c.value.toLowerCase()) && c.value.toLowerCase().includes(partial),
  );
  // Values that begin with what was typed first, then those that contain it.
  choices.sort(
    (a, b) =>
      Number(!a.value.toLowerCase().startsWith(partial)) - Number(!b.value.toLowerCase().startsWith(partial)),
  );
  const suggestions = choices.slice(0, MAX_SUGGESTIONS).map((c) => ({
    label: c.value,
    detail: c.detail,
    insert: `${quoted(c.value)}${token.to === text.length ? ' ' : ''}`,
  }));
  if (suggestions.length === 0) return null;
  return { from, to: token.to, suggestions };
}

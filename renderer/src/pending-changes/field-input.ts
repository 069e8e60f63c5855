// A task field's value as text in an input, and back: what the person types
// when editing a refused change or settling a conflict with a new value.

/** Fields that may not be emptied (null): an empty one is sent as '' for the server's rule to name. */
const NOT_NULLABLE: ReadonlySet<string> = new Set([
  'title',
  'status',
  'task_type',
  'tags',
  'name',
  'content',
]);

export function inputTextOf(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(String).join(', ');
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Fields the service takes as numbers: typed as text, sent as the number (a sprint's length in weeks). */
const NUMBERS: ReadonlySet<string> = new Set(['position', 'duration_weeks']);

/** The value an input's text stands for: a list for tags, a number for position, null for an emptied field. */
export function valueOfInput(field: string, text: string): unknown {
  if (field === 'tags') {
    return text
      .split(',')
      .map((tag) => tag.trim())
      .filter((tag) => tag !== '');
  }
  if (field === 'description') return text === '' ? null : text;
  // A comment's text keeps its lines and spacing as typed.
  if (field === 'content') return text;
  const trimmed = text.trim();
  if (trimmed === '') return NOT_NULLABLE.has(field) ? '' : null;
  if (NUMBERS.has(field)) {
    const number = Number(trimmed);
    return Number.isFinite(number) ? number : trimmed;
  }
  return trimmed;
}

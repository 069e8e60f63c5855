// How the headless command reads `--set field=value`: into the merge-patch a
// person's edit in the app would produce. The rules (also in the usage text):
//   - `null` clears the field; to set the text "null", quote it as JSON: `"null"`.
//   - `tags`: a comma list (`a,b,c`, blanks trimmed, empty items dropped; an empty
//     value is no tags) or a JSON array (`["a","b,c"]`, for tags holding commas).
//   - `position`: a number.
//   - anything else: the text as given; a value starting with `"` is read as a JSON string.
import { EDITABLE_TASK_FIELDS, type EditableTaskField } from '../../protocol/task';

/** A `--set` the command cannot read: says which and how to write it. */
export class SetValueError extends Error {
  override readonly name = 'SetValueError';
  constructor(
    readonly assignment: string,
    readonly reason: string,
  ) {
    super(`--set ${assignment}: ${reason}`);
  }
}

const EDITABLE: ReadonlySet<string> = new Set(EDITABLE_TASK_FIELDS);

export type TaskFieldValues = Partial<Record<EditableTaskField, unknown>>;

/** Reads every `--set field=value` into one patch; a field set twice keeps its last value. */
export function parseSetValues(assignments: readonly string[]): TaskFieldValues {
  const patch: TaskFieldValues = {};
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at <= 0) {
      throw new SetValueError(assignment, 'write it as field=value, e.g. --set status=in_progress');
    }
    const field = assignment.slice(0, at).trim();
    const raw = assignment.slice(at + 1);
    if (!EDITABLE.has(field)) {
      throw new SetValueError(
        assignment,
        `'${field}' is not a field you can change; use one of ${EDITABLE_TASK_FIELDS.join(', ')}`,
      );
    }
    patch[field as EditableTaskField] = parseFieldValue(field, raw, assignment);
  }
  return patch;
}

/**
 * Reads `--set field=value` for another kind (a comment's `content`), only
 * `fields` allowed, with the same rules for null and quoted text.
 */
export function parseKindSetValues(
  assignments: readonly string[],
  fields: readonly string[],
): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const assignment of assignments) {
    const at = assignment.indexOf('=');
    if (at <= 0) throw new SetValueError(assignment, `write it as field=value, e.g. --set ${fields[0]}=TEXT`);
    const field = assignment.slice(0, at).trim();
    if (!fields.includes(field)) {
      throw new SetValueError(
        assignment,
        `'${field}' is not a field you can set here; use one of ${fields.join(', ')}`,
      );
    }
    patch[field] = parseFieldValue(field, assignment.slice(at + 1), assignment);
  }
  return patch;
}

function parseFieldValue(field: string, raw: string, assignment: string): unknown {
  if (raw === 'null') return null;
  if (field === 'tags') return parseTags(raw, assignment);
  if (field === 'filters') return parseViewFilters(raw, assignment);
  if (field === 'position') {
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) {
      throw new SetValueError(assignment, 'position must be a number, e.g. --set position=1024');
    }
    return value;
  }
  if (field === 'duration_weeks') {
    const value = Number(raw);
    if (!Number.isInteger(value) || raw.trim() === '') {
      throw new SetValueError(
        assignment,
        'duration_weeks must be a whole number, e.g. --set duration_weeks=2',
      );
    }
    return value;
  }
  if (raw.startsWith('"')) {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new SetValueError(assignment, 'a value starting with " must be one JSON string, e.g. "null"');
    }
    if (typeof value !== 'string') {
      throw new SetValueError(assignment, 'a value starting with " must be one JSON string, e.g. "null"');
    }
    return value;
  }
  return raw;
}

/** A saved view's filters, as JSON: `{"status":["blocked"]}` (a key set to null is removed by an edit). */
function parseViewFilters(raw: string, assignment: string): Record<string, unknown> {
  const hint = 'filters must be a JSON object of lists of values, e.g. {"status":["blocked"]}';
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new SetValueError(assignment, hint);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new SetValueError(assignment, hint);
  return value as Record<string, unknown>;
}

function parseTags(raw: string, assignment: string): string[] {
  const trimmed = raw.trim();
  if (trimmed.startsWith('[')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      throw new SetValueError(assignment, 'tags as JSON must be an array of strings, e.g. ["a","b"]');
    }
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
      throw new SetValueError(assignment, 'tags as JSON must be an array of strings, e.g. ["a","b"]');
    }
    return value;
  }
  return trimmed
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

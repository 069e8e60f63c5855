// How one text differs from another, as parts a screen can mark (kept,
// added, removed): word by word for a line of text, line by line for longer
// text, computed by jsdiff so that the diff is the well-known one.
import { diffLines, diffWordsWithSpace } from 'diff';

export interface DiffPart {
  text: string;
  change: 'same' | 'added' | 'removed';
}

/** Fields shown as text diffs in the conflict view (others show their values side by side): a comment's content, a section's name too. */
const TEXT_FIELDS: ReadonlySet<string> = new Set(['title', 'description', 'content', 'name']);

export function isTextField(field: string): boolean {
  return TEXT_FIELDS.has(field);
}

/** Text of a value that may be null (an empty description). */
export function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The parts that turn `from` into `to`. Multi-line text is compared by lines
 * (a paragraph rewritten reads better whole), a single line by words
 * (whitespace kept, so joining the parts gives the texts back).
 */
export function textDiff(from: string, to: string): DiffPart[] {
  const multiline = from.includes('\n') || to.includes('\n');
  const changes = multiline ? diffLines(from, to) : diffWordsWithSpace(from, to);
  return changes
    .filter((change) => change.value !== '')
    .map((change) => ({
      text: change.value,
      change: change.added ? 'added' : change.removed ? 'removed' : 'same',
    }));
}

/** The text a diff reads as on one side: `from` without the added parts, `to` without the removed ones. */
export function sideOf(parts: readonly DiffPart[], side: 'from' | 'to'): string {
  const skip = side === 'from' ? 'added' : 'removed';
  return parts
    .filter((part) => part.change !== skip)
    .map((part) => part.text)
    .join('');
}

// What the board says about sections: the mark of a waiting change, why a
// name cannot be used, and what deleting one does to its tasks (gaps.md: they
// keep their project, in no section).
import { SECTION_NAME_MAX } from '../../../protocol/section';
import type { NameRules } from './name-rules';

/** An outbox operation's state while a section's change waits (workspace:get `pending`). */
export type PendingState = 'queued' | 'in_flight' | 'conflict' | 'failed' | 'blocked';

/**
 * Why `draft` cannot name a section beside `otherNames` (the scope's others), or null. Names are
 * compared without case, as the service does before answering 409.
 */
export function sectionNameProblem(draft: string, otherNames: readonly string[]): string | null {
  const name = draft.trim();
  if (name === '') return 'A section needs a name.';
  if (name.length > SECTION_NAME_MAX) return `A section's name has at most ${SECTION_NAME_MAX} characters.`;
  const lower = name.toLowerCase();
  const taken = otherNames.find((other) => other.toLowerCase() === lower);
  return taken === undefined ? null : `There is already a section called “${taken}” here.`;
}

/** "Rename and retry"'s rules for a section: the rules above; the refused name is taken on the server. */
export function sectionNameRules(otherNames: readonly string[]): NameRules {
  return {
    problem: (name) => sectionNameProblem(name, otherNames),
    takenWords: (taken) => `“${taken}” is taken on the server; choose another name.`,
    sentWords: (name) => `Section renamed to “${name}” and sent again.`,
    maxLength: SECTION_NAME_MAX,
  };
}

/** The names of the other sections in the scope of `sectionId`, as its column checks a new name against. */
export function scopeNeighbours(
  sections: readonly { section_id: string; name: string; scope_type: string; scope_id: string }[],
  sectionId: string | null | undefined,
): string[] {
  const own = sections.find((s) => s.section_id === sectionId);
  if (own === undefined) return [];
  return sections
    .filter((s) => s !== own && s.scope_type === own.scope_type && s.scope_id === own.scope_id)
    .map((s) => s.name);
}

/** The delete question's words: what happens to the section's tasks. */
export function deleteSectionWords(name: string, tasks: number): { title: string; detail: string } {
  return {
    title: `Delete section “${name}”?`,
    detail:
      tasks === 0
        ? 'It has no tasks.'
        : `${tasks === 1 ? 'Its task is' : `Its ${tasks} tasks are`} not deleted: ${tasks === 1 ? 'it stays' : 'they stay'} in ${tasks === 1 ? 'its' : 'their'} project, in no section.`,
  };
}

/** What a screen reader hears after a card moves. */
export function movedWords(title: string, section: string, index: number, count: number): string {
  return `Moved “${title}” to ${section}, position ${index + 1} of ${count}.`;
}

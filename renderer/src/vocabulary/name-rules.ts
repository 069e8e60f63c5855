// What a kind says of a new name, for "Rename and retry" (ui/rename-and-retry.tsx)
// on the resource and in the pending-changes inspector: the rules' shape, and
// a sprint's rules (a section's depend on its scope: section-words.ts). Apart
// from the form so the inspector and the sprint screen share one set of words.
import { SPRINT_NAME_MAX } from '../../../protocol/sprint';
import { VIEW_NAME_MAX } from '../../../protocol/view-filters';

/** What a kind says of a new name. */
export interface NameRules {
  /** Why `name` (trimmed) cannot name one of the kind, or null. */
  problem(name: string): string | null;
  /** Said when the refused name is given again (it is taken even before the taker reaches the mirror). */
  takenWords(taken: string): string;
  /** What a screen reader hears once the change is sent again. */
  sentWords(name: string): string;
  /** The longest name the service takes, where the input should stop there. */
  maxLength?: number;
}

/** A sprint's name: 1 to SPRINT_NAME_MAX characters, none an active sprint of the team has (the service's 409). */
export const SPRINT_NAME_RULES: NameRules = {
  problem: (name) =>
    name === '' || name.length > SPRINT_NAME_MAX
      ? `A sprint name is 1 to ${SPRINT_NAME_MAX} characters.`
      : null,
  takenWords: () => 'Choose a name no active sprint of the team has.',
  sentWords: (name) => `Renamed to ‘${name}’ and sent again.`,
};

/** A saved view's name: 1 to VIEW_NAME_MAX characters, none of its creator's other views has (the service's 409). */
export const VIEW_NAME_RULES: NameRules = {
  problem: (name) =>
    name === '' || name.length > VIEW_NAME_MAX ? `A view's name is 1 to ${VIEW_NAME_MAX} characters.` : null,
  takenWords: () => 'Choose a name none of your other views has.',
  sentWords: (name) => `Renamed to ‘${name}’ and sent again.`,
  maxLength: VIEW_NAME_MAX,
};

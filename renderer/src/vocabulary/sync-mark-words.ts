// The words for a change still waiting, as the mark any resource carries (a
// task, comment, section, sprint, goal or milestone): one vocabulary, with the
// kind's plural noun passed in where the words name it.
import type { SyncMark } from '../../../main/ipc/screen-schemas';

export type ShownMark = Exclude<SyncMark, null>;

export interface MarkWords {
  label: string;
  hint: string;
  mark: ShownMark;
}

/** The outbox's state of a waiting change as its mark: queued and being sent both read as not sent yet; done or none, no mark. */
export function markOfState(state: string | null | undefined): SyncMark {
  switch (state) {
    case null:
    case undefined:
    case 'done':
      return null;
    case 'conflict':
    case 'failed':
    case 'blocked':
      return state;
    default:
      return 'pending';
  }
}

/**
 * A mark's words for a kind (`kinds` its plural noun: "goals"). A state of the
 * outbox (`queued`, `in_flight`, …) is taken as well as a mark; being sent
 * says so in its hint.
 */
export function markWords(state: string, kinds: string): MarkWords {
  const mark = markOfState(state) ?? 'pending';
  switch (mark) {
    case 'pending':
      return {
        label: 'Not sent yet',
        hint:
          state === 'in_flight'
            ? 'Being sent to the server.'
            : 'Saved here; sent when the server can be reached.',
        mark,
      };
    case 'failed':
      return { label: 'Not saved', hint: 'The server refused this change: see pending changes.', mark };
    case 'conflict':
      return { label: 'Conflict', hint: 'Changed here and on the server: see pending changes.', mark };
    case 'blocked':
      return {
        label: 'Read-only',
        hint: `This account cannot change ${kinds}; the change was not sent.`,
        mark,
      };
  }
}

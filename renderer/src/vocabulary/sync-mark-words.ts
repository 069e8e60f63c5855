// The mark any resource carries while a change to it waits (a task, comment,
// section, sprint, goal or milestone): its words are the change's state's words
// (protocol/change-state-words), with the kind's plural noun passed in.
import type { WaitsOnView } from '../../../ipc/outbox-schemas';
import type { SyncMark } from '../../../ipc/screen-schemas';
import {
  type ChangeStateName,
  changeStateWords,
  type HeldBehind,
  waitingWords,
} from '../../../protocol/change-state-words';

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
 * outbox (`queued`, `in_flight`, …) is taken as well as a mark, and is told by
 * its own words: being sent reads "Sending" here as in the inspector.
 */
export function markWords(state: string, kinds: string, waitsOn?: WaitsOnView | null): MarkWords {
  const mark = markOfState(state) ?? 'pending';
  const named: ChangeStateName = state === 'in_flight' || state === 'sending' ? state : mark;
  // Held behind a change that stopped, a change not sent yet waits for the person, not for the network.
  const { label, sentence } =
    named === 'pending' && waitsOn != null
      ? waitingWords(heldBehindOf(waitsOn))
      : changeStateWords(named, kinds);
  return { label, hint: sentence, mark };
}

/** A `waits_on` of the app's calls as protocol/change-state-words takes it. */
export function heldBehindOf(on: WaitsOnView): HeldBehind {
  return { entityType: on.entity_type, name: on.name, kind: on.kind, state: on.state };
}

/**
 * Said after a choice's name (a sprint, goal or milestone) while its create
 * waits to be sent, in its mark's words: " (not sent yet)"; else nothing.
 */
export function unsentWords(unsent: boolean): string {
  return unsent ? ` (${changeStateWords('pending').label.toLowerCase()})` : '';
}

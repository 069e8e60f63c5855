// The mark a resource carries while its server copy differs from what the
// person sees: not sent yet, conflict, not saved, or read-only (the words in
// vocabulary/sync-mark-words.ts, the kind's noun passed in).
import type { WaitsOnView } from '../../../ipc/outbox-schemas';
import type { SyncMark } from '../../../ipc/screen-schemas';
import { type MarkWords, markOfState, markWords } from '../vocabulary/sync-mark-words';

export function syncMarkWords(mark: SyncMark): string | null {
  return mark === null ? null : markWords(mark, 'tasks').label;
}

function MarkChip({
  words,
  compact = false,
  data,
}: {
  words: MarkWords;
  compact?: boolean;
  data: Record<`data-${string}`, string>;
}) {
  return (
    <span
      className={`sync-mark sync-mark-${words.mark}${compact ? ' is-compact' : ''}`}
      title={words.hint}
      {...data}
    >
      <span className="sync-mark-dot" aria-hidden="true" />
      {compact ? <span className="visually-hidden">{words.label}</span> : words.label}
    </span>
  );
}

/**
 * A task's (or, with `kinds`, another resource's) mark as the list rows and editors show it;
 * `waitsOn`, the stopped change its edit is held behind, which a pending mark then names.
 */
export function SyncMarkBadge({
  mark,
  compact = false,
  kinds = 'tasks',
  waitsOn,
}: {
  mark: SyncMark;
  compact?: boolean;
  kinds?: string;
  waitsOn?: WaitsOnView | null | undefined;
}) {
  if (mark === null) return null;
  return (
    <MarkChip
      words={markWords(mark, kinds, waitsOn)}
      compact={compact}
      data={{
        'data-sync-mark': mark,
        ...(mark === 'pending' && waitsOn != null ? { 'data-waits-on': waitsOn.op_id } : {}),
      }}
    />
  );
}

/**
 * The mark of a resource's waiting change from the outbox's state (`queued`,
 * `in_flight`, …); `stateAttribute` carries the state itself for the screens
 * (and tests) that tell queued from being sent. `words` replaces the state's
 * words where the resource says more (a comment whose delete was refused).
 */
export function WaitingChangeMark({
  state,
  kinds,
  stateAttribute,
  words,
}: {
  state: string | null | undefined;
  kinds: string;
  stateAttribute: `data-${string}`;
  words?: MarkWords | undefined;
}) {
  if (state === null || state === undefined || markOfState(state) === null) return null;
  return <MarkChip words={words ?? markWords(state, kinds)} data={{ [stateAttribute]: state }} />;
}

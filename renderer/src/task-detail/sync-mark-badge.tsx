// The mark a task carries while its server copy differs from what the person
// sees: pending (waiting to be pushed), conflict, failed, or blocked.
import type { SyncMark } from '../../../main/ipc/screen-schemas';

const MARK_WORDS: Record<Exclude<SyncMark, null>, { label: string; hint: string }> = {
  pending: { label: 'Pending', hint: 'Saved here; waiting to be sent to the server.' },
  conflict: { label: 'Conflict', hint: 'Changed here and on the server; needs your choice.' },
  failed: { label: 'Not saved', hint: 'The server refused this change.' },
  blocked: { label: 'Read-only', hint: 'This account cannot change tasks; the change was not sent.' },
};

export function syncMarkWords(mark: SyncMark): string | null {
  return mark === null ? null : MARK_WORDS[mark].label;
}

export function SyncMarkBadge({ mark, compact = false }: { mark: SyncMark; compact?: boolean }) {
  if (mark === null) return null;
  const words = MARK_WORDS[mark];
  return (
    <span
      className={`sync-mark sync-mark-${mark}${compact ? ' is-compact' : ''}`}
      title={words.hint}
      data-sync-mark={mark}
    >
      <span className="sync-mark-dot" aria-hidden="true" />
      {compact ? <span className="visually-hidden">{words.label}</span> : words.label}
    </span>
  );
}

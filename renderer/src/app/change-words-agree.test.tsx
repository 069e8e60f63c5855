// Every view of a waiting change says its state in the same words, those of
// protocol/change-state-words (issue 21): the status bar, the pending-changes
// inspector, the row marks, a waiting change's mark, the editor's field labels
// and its notice; and the status bar counts what the inspector lists.
// It lives in app/, which may import every feature, as it renders several side by side.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { PendingState } from '../../../ipc/outbox-schemas';
import type { SyncStatus } from '../../../ipc/screen-schemas';
import {
  type ChangeState,
  changeCountWords,
  changeStateWords,
  countChanges,
} from '../../../protocol/change-state-words';
import { ChangeStateChip, listedChangesWords } from '../pending-changes/pending-changes-inspector';
import { SyncMarkNotice } from '../ui/sync-mark-notice';
import { WaitingChanges } from '../status-bar/status-bar';
import { SyncMarkBadge, WaitingChangeMark } from '../ui/sync-mark-badge';
import { FieldMark } from '../task-detail/task-editor';
import { markOfState, unsentWords } from '../vocabulary/sync-mark-words';
import { syncStatus } from '../testing/screen-fixtures';

/** The text a person reads, and the tooltips, of some markup. */
function shown(element: React.ReactElement): { text: string; titles: string[] } {
  const html = renderToStaticMarkup(element);
  const titles = [...html.matchAll(/title="([^"]*)"/g)].map((m) => m[1] ?? '');
  const text = html
    .replace(/<[^>]+>/g, '')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"');
  return { text, titles: titles.map((t) => t.replace(/&#x27;/g, "'")) };
}

/** The IPC's name of each outbox state (main/ipc/outbox-handlers). */
const IPC_STATE: Readonly<Record<ChangeState, PendingState>> = {
  queued: 'queued',
  in_flight: 'sending',
  conflict: 'conflict',
  failed: 'failed',
  blocked: 'blocked',
};

const STATES: readonly ChangeState[] = ['queued', 'in_flight', 'conflict', 'failed', 'blocked'];

/** A status bar of one change in `state`, as main's board counts it (db/outbox/outbox-counts). */
function statusOfOne(state: ChangeState): SyncStatus {
  const group = countChanges([state]);
  return syncStatus({
    pending_count: group.pending,
    conflict_count: group.conflicts,
    failed_count: group.failed,
    blocked_count: group.blocked,
  });
}

describe.each(STATES)('a change %s', (state) => {
  const words = changeStateWords(state);

  test('the inspector says its label, and its sentence as the tooltip', () => {
    const chip = shown(<ChangeStateChip change={{ state: IPC_STATE[state] }} />);
    expect(chip).toEqual({ text: words.label, titles: [words.sentence] });
  });

  test("its resource's mark says the same", () => {
    const mark = shown(
      <WaitingChangeMark state={state} kinds="tasks" stateAttribute="data-comment-pending" />,
    );
    expect(mark).toEqual({ text: words.label, titles: [words.sentence] });
  });

  test("a row's mark and a waiting field's label say the words of the row's mark", () => {
    // A row's mark does not tell queued from being sent: both are "pending", told as queued.
    const mark = markOfState(state);
    const rowWords = changeStateWords(mark ?? 'pending');
    expect(shown(<SyncMarkBadge mark={mark} />)).toEqual({
      text: rowWords.label,
      titles: [rowWords.sentence],
    });
    expect(shown(<FieldMark mark={mark} />)).toEqual({ text: rowWords.label, titles: [rowWords.sentence] });
  });

  test('the status bar counts it in words of its state, and as many as the inspector lists', () => {
    const bar = shown(<WaitingChanges status={statusOfOne(state)} />).text;
    const inspector = listedChangesWords([{ state: IPC_STATE[state] }]);
    expect(inspector).toBe('1 change waiting');
    const part =
      state === 'conflict'
        ? '1 conflict'
        : `1 ${changeStateWords(state === 'in_flight' ? 'queued' : state).label.toLowerCase()}`;
    expect(bar).toBe(`${inspector}${part}`);
  });
});

test.each(['conflict', 'failed', 'blocked'] as const)(
  "the editor's notice of a task's %s change says its label and sentence",
  (mark) => {
    const { label, sentence } = changeStateWords(mark);
    expect(shown(<SyncMarkNotice taskId="tsk_1" mark={mark} gone={false} />).text).toContain(
      `${label}. ${sentence}`,
    );
  },
);

test('the status bar and the inspector count the same changes: every one waiting, not only the queued', () => {
  // The screen: one change queued and three refused.
  const listed: PendingState[] = ['queued', 'failed', 'failed', 'failed'];
  const bar = shown(<WaitingChanges status={syncStatus({ pending_count: 1, failed_count: 3 })} />).text;
  expect(listedChangesWords(listed.map((state) => ({ state })))).toBe('4 changes waiting');
  expect(bar).toBe(
    ['4 changes waiting', ...changeCountWords(countChanges(listed)).parts.map((p) => p.text)].join(''),
  );
  expect(bar).toBe('4 changes waiting3 not saved1 not sent yet');
});

test('nothing waiting: the status bar and the inspector both say all is synced', () => {
  expect(shown(<WaitingChanges status={syncStatus({})} />).text).toBe('All changes synced');
  expect(listedChangesWords([])).toBe('All changes synced');
});

test("a sprint, goal or milestone whose create waits says so after its name in its mark's words", () => {
  expect(unsentWords(true)).toBe(` (${changeStateWords('pending').label.toLowerCase()})`);
  expect(unsentWords(true)).toBe(' (not sent yet)');
  expect(unsentWords(false)).toBe('');
});

// The inspector's row of a change held behind one that stopped says what it waits
// on, in protocol/change-state-words' waiting words, and names that change and its
// state with a way to go to it (issue 21, defect 2): never "sent when the server can be reached".
import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { WaitsOnView } from '../../../ipc/outbox-schemas';
import { changeStateWords, waitingWords } from '../../../protocol/change-state-words';
import { FieldMark } from '../task-detail/task-editor';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { ChangeStateChip, WaitsOnLine } from '../pending-changes/pending-changes-inspector';
import { SyncMarkNotice } from '../ui/sync-mark-notice';

const SPRINT_BLOCKED: WaitsOnView = {
  op_id: 'op-sprint',
  kind: 'create',
  entity_type: 'sprint',
  entity_id: 'local-1',
  name: 'Q3',
  state: 'blocked',
};

function shown(element: React.ReactElement): { text: string; titles: string[]; html: string } {
  const html = renderToStaticMarkup(element);
  const titles = [...html.matchAll(/title="([^"]*)"/g)].map((m) => m[1] ?? '');
  return { text: html.replace(/<[^>]+>/g, ''), titles, html };
}

test('the chip of a task filed into a sprint whose create is read-only says it waits for the sprint, not that it is sent when the server can be reached', () => {
  const chip = shown(<ChangeStateChip change={{ state: 'queued', waits_on: SPRINT_BLOCKED }} />);
  const words = waitingWords({ entityType: 'sprint', name: 'Q3', kind: 'create', state: 'blocked' });
  expect(chip.text).toBe('Waiting for sprint ‘Q3’');
  expect(chip.titles).toEqual([words.sentence]);
  expect(chip.html).not.toContain(changeStateWords('queued').sentence);
});

test('a change with nothing stopped ahead keeps its own state words', () => {
  const chip = shown(<ChangeStateChip change={{ state: 'queued', waits_on: null }} />);
  expect(chip.text).toBe(changeStateWords('queued').label);
});

test('the line names the change it waits on and its state, and offers to go to it', () => {
  const line = shown(<WaitsOnLine waitsOn={SPRINT_BLOCKED} onShow={() => undefined} />);
  expect(line.text).toContain('Waits for the new sprint ‘Q3’ (Read-only): retry or discard that change.');
  expect(line.html).toMatch(
    /<button[^>]*aria-controls="pending-op-op-sprint"[^>]*>Show that change<\/button>/,
  );
});

test("a task's row mark, its waiting field's label and the editor's notice say the same waiting words", () => {
  const words = waitingWords({ entityType: 'sprint', name: 'Q3', kind: 'create', state: 'blocked' });
  expect(shown(<SyncMarkBadge mark="pending" waitsOn={SPRINT_BLOCKED} />)).toMatchObject({
    text: words.label,
    titles: [words.sentence],
  });
  expect(shown(<SyncMarkBadge mark="pending" waitsOn={SPRINT_BLOCKED} compact />).text).toBe(words.label);
  expect(shown(<FieldMark mark="pending" waitsOn={SPRINT_BLOCKED} />)).toMatchObject({
    text: words.label,
    titles: [words.sentence],
  });
  const notice = shown(
    <SyncMarkNotice taskId="tsk_1" mark="pending" gone={false} waitsOn={SPRINT_BLOCKED} />,
  );
  expect(notice.text).toContain(`${words.label}. ${words.sentence}`);
  expect(notice.text).toContain('See pending changes');
  // Without a change held, a pending task keeps its own words and no notice.
  expect(shown(<SyncMarkBadge mark="pending" />).text).toBe(changeStateWords('pending').label);
  expect(shown(<SyncMarkNotice taskId="tsk_1" mark="pending" gone={false} />).text).toBe('');
});

// What the board shows of its scope: its sections in board order and the tasks
// filed under them, each with the moves a load does not hold yet on top
// (waiting-moves.ts). Apart from the board because it is the board's data, read
// the same however the columns are drawn or moved.
import { useEffect, useState } from 'react';
import type { TaskRow, Workspace } from '../../../ipc/screen-schemas';
import { useFiledTasks } from '../data/use-filed-tasks';
import { useWorkspace, workspaceLoadsAsked } from '../store/workspace-store';
import { inBoardOrder } from './board-order';
import { WaitingMoves } from './waiting-moves';

export type BoardSection = Workspace['sections'][number];
/** What a card move changes of a task; shown at once, before the mirror answers. */
export type CardPatch = { section_id?: string; position: number };
/** What a column move changes of a section. */
export type SectionPatch = { position: number };

const markCard = (row: TaskRow): TaskRow => ({ ...row, sync_mark: row.sync_mark ?? 'pending' });
const markSection = (section: BoardSection): BoardSection => ({
  ...section,
  pending: section.pending ?? 'queued',
});

/**
 * The scope's sections in board order. The workspace reloads a while after a
 * section's edit is saved: until a load holds each move, the columns stand
 * where the moves put them, and the next move counts from there.
 */
export function useBoardSections(scopeType: string, scopeId: string) {
  const workspace = useWorkspace((state) => state.workspace);
  const workspaceLoad = useWorkspace((state) => state.load);
  const [sectionMoves] = useState(() => new WaitingMoves<SectionPatch>());
  const [, setSectionsMoved] = useState(0);
  const sections = inBoardOrder(
    (workspace?.sections ?? [])
      .filter((section) => section.scope_type === scopeType && section.scope_id === scopeId)
      .map((section) => sectionMoves.over(section.section_id, section, markSection, workspaceLoad)),
  );
  /** Shows column moves before the mirror's answer, until a load asked for after `settle` of each. */
  const patchLocally = (patches: readonly { id: string; patch: SectionPatch }[]) => {
    sectionMoves.loaded(workspaceLoad);
    for (const { id, patch } of patches) sectionMoves.add(id, patch);
    setSectionsMoved((n) => n + 1);
  };
  /** Saved or refused, the mirror says now where the columns are: a load from here on shows it. */
  const settle = (id: string, patch: SectionPatch) => sectionMoves.settle(id, patch, workspaceLoadsAsked());
  return { sections, patchLocally, settle };
}

/**
 * The board's cards: the tasks filed under its sections, with each card move
 * not yet in a load on top. A load answered before a move reached the mirror
 * would put the card back for a moment (and a keyboard move made then would
 * start from the old place): the move stays shown, as the columns' do.
 */
export function useBoardCards(sectionIds: readonly string[]) {
  const { rows: loaded, truncated, read } = useFiledTasks('section_id', sectionIds);
  const [moves] = useState(() => new WaitingMoves<CardPatch>());
  const [, setMoved] = useState(0);
  const { answered, asked, reload } = read;
  // The moves the load on show holds are forgotten.
  useEffect(() => moves.loaded(answered), [moves, answered]);
  const rows = loaded === null ? null : loaded.map((row) => moves.over(row.task_id, row, markCard, answered));
  /** Shows edits before the mirror's answer, until a load asked for after `settle` of each. */
  const patchLocally = (patches: readonly { taskId: string; patch: CardPatch }[]) => {
    for (const { taskId, patch } of patches) moves.add(taskId, patch);
    setMoved((n) => n + 1);
  };
  /** The edit of a moved card was answered (saved or refused): the next load shows what the mirror holds. */
  const settle = (taskId: string, patch: CardPatch) => moves.settle(taskId, patch, asked());
  return { rows, truncated, patchLocally, settle, reload };
}

// Moving cards and columns, by drag and drop or by keyboard (Alt+arrows): where
// a move lands (placeAt), shown at once, sent in the order made, told to screen
// readers, and after a keyboard move the focus given back to what moved. Apart
// from the board because it is the one place the board's moves are computed
// and sent; the board only says what was asked.
import { type RefObject, useEffect, useRef } from 'react';
import type { TaskRow } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import type { CardStep } from './board-card';
import { placeAt } from './board-order';
import { movedWords } from '../vocabulary/section-words';
import type { BoardSection, CardPatch, SectionPatch } from './use-board-columns';

export interface BoardColumn {
  section: BoardSection;
  cards: TaskRow[];
}

/** After a keyboard move, what gets the focus back once the moved element is in its new place. */
type FocusAfter = { taskId: string } | { sectionId: string; action: string } | null;

export function useBoardMoves({
  boardRef,
  sections,
  columns,
  cards,
  columnMoves,
}: {
  boardRef: RefObject<HTMLDivElement | null>;
  sections: readonly BoardSection[];
  columns: readonly BoardColumn[];
  cards: {
    patchLocally: (patches: readonly { taskId: string; patch: CardPatch }[]) => void;
    settle: (taskId: string, patch: CardPatch) => void;
    reload: () => void;
  };
  columnMoves: {
    patchLocally: (patches: readonly { id: string; patch: SectionPatch }[]) => void;
    settle: (id: string, patch: SectionPatch) => void;
  };
}) {
  const focusAfter = useRef<FocusAfter>(null);
  const writes = useRef<Promise<void>>(Promise.resolve());

  // A moved element is put back in the page in its new place (React moves it), which takes its focus
  // away; give the focus back to it once it is there, unless the person has focused something else.
  useEffect(() => {
    const wanted = focusAfter.current;
    const board = boardRef.current;
    if (wanted === null || board === null) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    const target =
      'taskId' in wanted
        ? board.querySelector<HTMLElement>(`li[data-task-id="${CSS.escape(wanted.taskId)}"] .card-open`)
        : (board.querySelector<HTMLElement>(
            `[data-section-id="${CSS.escape(wanted.sectionId)}"] [data-action="${wanted.action}"]:not(:disabled)`,
          ) ??
          board.querySelector<HTMLElement>(
            `[data-section-id="${CSS.escape(wanted.sectionId)}"] [data-action="rename"]`,
          ));
    target?.focus();
  });

  /**
   * Runs the board's edits one after another, in the order the person made them: two quick moves
   * sent side by side can land in the mirror the other way round (each waits for the pull worker's
   * write lock on its own timer), and the earlier position then overwrites the later.
   */
  const inOrder = (work: () => Promise<void>): Promise<void> => {
    const next = writes.current.then(work).catch(() => undefined);
    writes.current = next;
    return next;
  };

  const moveCard = async (taskId: string, toSectionId: string, index: number) => {
    const from = columns.find((column) => column.cards.some((card) => card.task_id === taskId));
    const to = columns.find((column) => column.section.section_id === toSectionId);
    const row = from?.cards.find((card) => card.task_id === taskId);
    if (from === undefined || to === undefined || row === undefined) return;
    const edits = placeAt(
      to.cards.map((card) => ({ id: card.task_id, position: card.position })),
      taskId,
      index,
    );
    const others = to.cards.filter((card) => card.task_id !== taskId).length;
    const at = Math.max(0, Math.min(index, others));
    if (edits.length === 0) return;
    const patches = edits.map((edit) => ({
      taskId: edit.id,
      patch:
        edit.id === taskId && from !== to
          ? { section_id: toSectionId, position: edit.position }
          : { position: edit.position },
    }));
    cards.patchLocally(patches);
    announce(movedWords(row.title, to.section.name, at, others + 1));
    await inOrder(async () => {
      try {
        for (const { taskId: id, patch } of patches) {
          await invoke('task:edit', { task_id: id, patch });
          cards.settle(id, patch);
        }
      } catch (error) {
        showProblem(error, 'Moving the task');
        cards.reload();
      } finally {
        for (const { taskId: id, patch } of patches) cards.settle(id, patch);
      }
    });
  };

  const stepCard = (taskId: string, step: CardStep) => {
    const at = columns.findIndex((column) => column.cards.some((card) => card.task_id === taskId));
    const column = columns[at];
    if (column === undefined) return;
    const index = column.cards.findIndex((card) => card.task_id === taskId);
    const title = column.cards[index]?.title ?? '';
    focusAfter.current = { taskId };
    if (step === 'up' || step === 'down') {
      const to = step === 'up' ? index - 1 : index + 1;
      if (to < 0 || to >= column.cards.length) {
        announce(`“${title}” is already ${step === 'up' ? 'first' : 'last'} in ${column.section.name}.`);
        return;
      }
      void moveCard(taskId, column.section.section_id, to);
      return;
    }
    const target = columns[step === 'left' ? at - 1 : at + 1];
    if (target === undefined) {
      announce(`“${title}” is already in the ${step === 'left' ? 'first' : 'last'} section.`);
      return;
    }
    void moveCard(taskId, target.section.section_id, Math.min(index, target.cards.length));
  };

  const moveSection = async (sectionId: string, index: number) => {
    const section = sections.find((s) => s.section_id === sectionId);
    if (section === undefined) return;
    const edits = placeAt(
      sections.map((s) => ({ id: s.section_id, position: s.position })),
      sectionId,
      index,
    );
    if (edits.length === 0) return;
    const at = Math.max(0, Math.min(index, sections.length - 1));
    const patches = edits.map((edit) => ({ id: edit.id, patch: { position: edit.position } }));
    columnMoves.patchLocally(patches);
    announce(`Moved section “${section.name}” to position ${at + 1} of ${sections.length}.`);
    await inOrder(async () => {
      try {
        for (const { id, patch } of patches) {
          await invoke('collection:edit', { kind: 'section', id, patch });
        }
      } catch (error) {
        showProblem(error, 'Moving the section');
      } finally {
        for (const { id, patch } of patches) columnMoves.settle(id, patch);
        void loadWorkspace();
      }
    });
  };

  /** A column moved by keyboard one place to `step`: the focus comes back to the button pressed. */
  const stepSection = (sectionId: string, index: number, step: 'left' | 'right', action: string) => {
    focusAfter.current = { sectionId, action };
    void moveSection(sectionId, step === 'left' ? index - 1 : index + 1);
  };

  /** A pointer used on the board: the focus is the person's, not given back after a move. */
  const forgetFocus = () => {
    focusAfter.current = null;
  };

  return { moveCard, stepCard, moveSection, stepSection, forgetFocus };
}

// Sections as a board: one column per section of a scope (a project, a team,
// or the person's own), its tasks as cards in their order (`position`, gaps.md).
// A person adds, renames, reorders and deletes sections here, and moves cards
// to a place in any column by drag and drop or by keyboard (Alt+arrows), each
// move told to screen readers. Cards move as task edits of `section_id` and
// `position`, sections through the collection writes; all applied at once and
// synced behind, a section waiting to be sent marked as a task is. What it
// shows, how moves are made and how drags land are in the use-board-* hooks.
// Cards are selected for a bulk change as the list's rows are (store/selection-store.ts),
// in board order: column by column, top to bottom.
import { useKindReadOnly } from '../ui/kind-consent';
import { type KeyboardEvent, type MouseEvent, useEffect, useRef, useState } from 'react';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce, openTask, useView } from '../store/view-store';
import {
  clearSelection,
  extendedTo,
  isEmpty,
  isSelected,
  NOTHING_SELECTED,
  setSelection,
  toggled,
  useSelection,
} from '../store/selection-store';
import { BulkBar } from '../ui/bulk-bar';
import { useWorkspace } from '../store/workspace-store';
import { ModalDialog } from '../ui/modal-dialog';
import { BoardCard } from './board-card';
import { ScrollButton, scrollBoard } from './board-scroll-button';
import { useColumnsOutOfView } from './columns-out-of-view';
import { useDragEdgeScroll } from './drag-edge-scroll';
import { inBoardOrder, POSITION_STEP } from './board-order';
import { SectionAdder } from './section-adder';
import { SectionHeader } from './section-header';
import { SectionRefusal, useSectionRefusals } from './section-refusal';
import { deleteSectionWords } from '../vocabulary/section-words';
import { type BoardSection, useBoardCards, useBoardSections } from './use-board-columns';
import { useBoardDrag } from './use-board-drag';
import { useBoardMoves } from './use-board-moves';
import './board.css';

export function SectionBoard({ scopeType, scopeId }: { scopeType: string; scopeId: string }) {
  const projectNames = useWorkspace((state) => state.projectNames);
  const teamNames = useWorkspace((state) => state.teamNames);
  const openTaskId = useView((state) => state.openTaskId);
  // Sections and cards are changed with tasks:write; a sign-in without it leaves the board to look at.
  const sectionsLocked = useKindReadOnly('section');
  const cardsLocked = useKindReadOnly('task');
  const readOnly = sectionsLocked || cardsLocked;
  const [deleting, setDeleting] = useState<{ section: BoardSection; tasks: number } | null>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  const outOfView = useColumnsOutOfView(boardRef);
  const columnMoves = useBoardSections(scopeType, scopeId);
  const { sections } = columnMoves;
  const refusals = useSectionRefusals(sections.some((section) => section.pending === 'failed'));
  const cardData = useBoardCards(sections.map((section) => section.section_id));
  const { rows, truncated } = cardData;
  const columns = sections.map((section) => ({
    section,
    cards: inBoardOrder((rows ?? []).filter((row) => row.section_id === section.section_id)),
  }));
  const { moveCard, stepCard, moveSection, stepSection, forgetFocus } = useBoardMoves({
    boardRef,
    sections,
    columns,
    cards: cardData,
    columnMoves,
  });
  const drag = useBoardDrag({ readOnly, sections, columns, moveCard, moveSection });
  const selection = useSelection((state) => (state.surface === 'board' ? state.selection : NOTHING_SELECTED));
  const running = useSelection((state) => state.running);
  /** Every card in board order: the indexes a range runs over. */
  const order = columns.flatMap(({ cards }) => cards.map((row) => row.task_id));
  const idAt = (index: number) => order[index];

  // Another board is another selection.
  useEffect(() => {
    if (useSelection.getState().surface === 'board') clearSelection();
  }, [scopeType, scopeId]);

  const pickCard = (taskId: string, event: MouseEvent) => {
    const index = order.indexOf(taskId);
    if (event.shiftKey) {
      const from = openTaskId === null ? index : Math.max(order.indexOf(openTaskId), 0);
      setSelection('board', extendedTo(selection, from, index, idAt));
    } else if (event.ctrlKey || event.metaKey) {
      setSelection('board', toggled(selection, index, taskId));
    } else {
      setSelection('board', { kind: 'ids', ids: new Set(), anchor: index });
      openTask(taskId);
    }
  };

  const extendFrom = (taskId: string, by: 1 | -1) => {
    const from = order.indexOf(taskId);
    const to = Math.max(0, Math.min(from + by, order.length - 1));
    setSelection('board', extendedTo(selection, from, to, idAt));
    boardRef.current?.querySelector<HTMLElement>(`[data-task-id="${order[to]}"] .card-open`)?.focus();
  };

  /** Ctrl/Cmd+A: every card on the board; Escape: none. */
  const onBoardKeyDown = (event: KeyboardEvent) => {
    if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'a') {
      if (event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement) return;
      event.preventDefault();
      setSelection('board', { kind: 'ids', ids: new Set(order), anchor: null });
    } else if (event.key === 'Escape' && !isEmpty(selection)) {
      clearSelection();
    }
  };
  useDragEdgeScroll(boardRef, drag.dragging);
  const name =
    scopeType === 'user'
      ? 'My board'
      : scopeType === 'team'
        ? (teamNames.get(scopeId) ?? scopeId)
        : (projectNames.get(scopeId) ?? scopeId);

  const renameSection = async (section: BoardSection, next: string) => {
    try {
      await invoke('collection:edit', { kind: 'section', id: section.section_id, patch: { name: next } });
      announce(`Section “${section.name}” renamed to “${next}”.`);
    } catch (error) {
      showProblem(error, 'Renaming the section');
    }
  };

  const createSection = async (next: string) => {
    const last = sections.at(-1);
    try {
      await invoke('collection:create', {
        kind: 'section',
        fields: {
          scope_type: scopeType,
          scope_id: scopeId,
          name: next,
          position: (last?.position ?? 0) + POSITION_STEP,
        },
      });
      announce(`Section “${next}” added.`);
    } catch (error) {
      showProblem(error, 'Adding the section');
    }
  };

  const deleteSection = async (section: BoardSection) => {
    setDeleting(null);
    try {
      await invoke('collection:delete', { kind: 'section', id: section.section_id });
      announce(`Section “${section.name}” deleted.`);
    } catch (error) {
      showProblem(error, 'Deleting the section');
    }
  };

  return (
    <section className="board" aria-labelledby="board-title">
      <header className="list-header">
        <div className="list-title-row">
          <h1 id="board-title">{name}</h1>
          <span className="list-count">
            {sections.length} sections{truncated ? ' · showing the first 2 000 tasks' : ''}
          </span>
          <ScrollButton
            side="left"
            names={outOfView.left}
            onClick={() => scrollBoard(boardRef.current, -1)}
          />
          <ScrollButton
            side="right"
            names={outOfView.right}
            onClick={() => scrollBoard(boardRef.current, 1)}
          />
        </div>
      </header>
      {!isEmpty(selection) || running !== null ? (
        <BulkBar
          selection={selection}
          count={selection.kind === 'ids' ? selection.ids.size : null}
          disabled={cardsLocked}
        />
      ) : null}
      <div
        className={`board-columns${outOfView.left.length > 0 ? ' more-left' : ''}${outOfView.right.length > 0 ? ' more-right' : ''}`}
        ref={boardRef}
        onPointerDown={forgetFocus}
        onKeyDown={onBoardKeyDown}
      >
        {sections.length === 0 ? <p className="empty-state">No sections here yet.</p> : null}
        {columns.map(({ section, cards }, index) => {
          const previous = sections[index - 1];
          const next = sections[index + 1];
          const marks = drag.columnMarks(section.section_id, index);
          return (
            <section
              key={section.section_id}
              className={`board-column${marks}`}
              data-section-id={section.section_id}
              data-column-name={section.name}
              aria-label={`${section.name}, ${cards.length} tasks`}
              onDragOver={(event) => drag.onColumnDragOver(event, index, cards.length)}
              onDragLeave={drag.onColumnDragLeave}
              onDrop={(event) => drag.onDrop(event, section.section_id)}
            >
              <SectionHeader
                name={section.name}
                pending={section.pending}
                count={cards.length}
                readOnly={readOnly}
                first={index === 0}
                last={index === sections.length - 1}
                otherNames={sections.filter((s) => s !== section).map((s) => s.name)}
                onRename={(next) => void renameSection(section, next)}
                onMove={(step, action) => stepSection(section.section_id, index, step, action)}
                onDelete={() =>
                  setDeleting({ section, tasks: truncated ? section.task_count : cards.length })
                }
                onDragStart={() => drag.dragSection(section.section_id)}
                onDragEnd={drag.endDrag}
              />
              {section.pending === 'failed' ? (
                <SectionRefusal
                  changes={refusals.get(section.section_id) ?? []}
                  sectionName={section.name}
                  otherNames={sections.filter((s) => s !== section).map((s) => s.name)}
                />
              ) : null}
              <ul className="cards" aria-label={`Tasks in ${section.name}`}>
                {rows === null ? <li className="muted">Loading…</li> : null}
                {cards.map((row, cardIndex) => (
                  <BoardCard
                    key={row.task_id}
                    row={row}
                    open={row.task_id === openTaskId}
                    selected={isSelected(selection, row.task_id)}
                    onPick={(event) => pickCard(row.task_id, event)}
                    onExtend={(by) => extendFrom(row.task_id, by)}
                    readOnly={readOnly}
                    previousName={previous?.name ?? null}
                    nextName={next?.name ?? null}
                    first={cardIndex === 0}
                    last={cardIndex === cards.length - 1}
                    dropMark={drag.cardMark(section.section_id, cardIndex, cards.length)}
                    onStep={(step) => stepCard(row.task_id, step)}
                    onDragStart={() => drag.dragCard(row.task_id)}
                    onDragEnd={drag.endDrag}
                    onDragOver={(event) => drag.onCardDragOver(event, section.section_id, cardIndex)}
                  />
                ))}
              </ul>
            </section>
          );
        })}
        {!readOnly ? (
          <SectionAdder names={sections.map((s) => s.name)} onCreate={(next) => void createSection(next)} />
        ) : null}
      </div>
      {deleting !== null ? (
        <ModalDialog
          className="confirm-dialog"
          alert
          label={deleteSectionWords(deleting.section.name, deleting.tasks).title}
          onClose={() => setDeleting(null)}
        >
          <p>
            <strong>{deleteSectionWords(deleting.section.name, deleting.tasks).title}</strong>{' '}
            {deleteSectionWords(deleting.section.name, deleting.tasks).detail}
          </p>
          <div className="confirm-actions">
            <button
              type="button"
              className="button danger"
              onClick={() => void deleteSection(deleting.section)}
            >
              Delete section
            </button>
            <button type="button" className="button" autoFocus onClick={() => setDeleting(null)}>
              Cancel
            </button>
          </div>
        </ModalDialog>
      ) : null}
    </section>
  );
}

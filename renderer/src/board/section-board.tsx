// Sections as a board: one column per section of a scope (a project, a team,
// or the person's own), its tasks as cards in their order (`position`, gaps.md).
// A person adds, renames, reorders and deletes sections here, and moves cards
// to a place in any column by drag and drop or by keyboard (Alt+arrows), each
// move told to screen readers. Cards move as task edits of `section_id` and
// `position`, sections through the collection writes; all applied at once and
// synced behind, a section waiting to be sent marked as a task is.
import { useKindReadOnly } from '../sign-in/kind-consent';
import { type DragEvent, useEffect, useRef, useState } from 'react';
import type { TaskRow, Workspace } from '../../../main/ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { useFiledTasks } from '../data/use-filed-tasks';
import { showProblem } from '../store/session-store';
import { announce, useView } from '../store/view-store';
import { loadWorkspace, useWorkspace, workspaceLoadsAsked } from '../store/workspace-store';
import { ModalDialog } from '../ui/modal-dialog';
import { BoardCard, type CardStep } from './board-card';
import { useColumnsOutOfView } from './columns-out-of-view';
import { useDragEdgeScroll } from './drag-edge-scroll';
import { inBoardOrder, placeAt, POSITION_STEP } from './board-order';
import { SectionAdder } from './section-adder';
import { SectionHeader } from './section-header';
import { SectionRefusal, useSectionRefusals } from './section-refusal';
import { deleteSectionWords, movedWords } from './section-words';
import { WaitingMoves } from './waiting-moves';
import './board.css';

/** What a card move changes of a task; shown at once, before the mirror answers. */
type CardPatch = { section_id?: string; position: number };
/** What a column move changes of a section. */
type SectionPatch = { position: number };

const markCard = (row: TaskRow): TaskRow => ({ ...row, sync_mark: row.sync_mark ?? 'pending' });
const markSection = (section: BoardSection): BoardSection => ({
  ...section,
  pending: section.pending ?? 'queued',
});

/**
 * The board's cards: the tasks filed under its sections, with each card move
 * not yet in a load on top. A load answered before a move reached the mirror
 * would put the card back for a moment (and a keyboard move made then would
 * start from the old place): the move stays shown, as the columns' do.
 */
function useBoardCards(sectionIds: readonly string[]) {
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

type BoardSection = Workspace['sections'][number];
type Dragging = { kind: 'card'; taskId: string } | { kind: 'section'; sectionId: string } | null;
/** Where a card dragged over the board would land: a gap of a column's shown cards (0 = before the first). */
type CardDrop = { sectionId: string; gap: number } | null;
/** After a keyboard move, what gets the focus back once the moved element is in its new place. */
type FocusAfter = { taskId: string } | { sectionId: string; action: string } | null;

/** The place in the list without the moved item that a gap of the shown list names. */
function gapToIndex(gap: number, movedAt: number): number {
  return movedAt !== -1 && movedAt < gap ? gap - 1 : gap;
}

export function SectionBoard({ scopeType, scopeId }: { scopeType: string; scopeId: string }) {
  const workspace = useWorkspace((state) => state.workspace);
  const workspaceLoad = useWorkspace((state) => state.load);
  const projectNames = useWorkspace((state) => state.projectNames);
  const teamNames = useWorkspace((state) => state.teamNames);
  const openTaskId = useView((state) => state.openTaskId);
  // Sections and cards are changed with tasks:write; a sign-in without it leaves the board to look at.
  const sectionsLocked = useKindReadOnly('section');
  const cardsLocked = useKindReadOnly('task');
  const readOnly = sectionsLocked || cardsLocked;
  const [dragging, setDragging] = useState<Dragging>(null);
  const [cardDrop, setCardDrop] = useState<CardDrop>(null);
  const [sectionDrop, setSectionDrop] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<{ section: BoardSection; tasks: number } | null>(null);
  const focusAfter = useRef<FocusAfter>(null);
  const boardRef = useRef<HTMLDivElement>(null);
  const writes = useRef<Promise<void>>(Promise.resolve());
  const [sectionMoves] = useState(() => new WaitingMoves<SectionPatch>());
  const [, setSectionsMoved] = useState(0);
  const outOfView = useColumnsOutOfView(boardRef);
  useDragEdgeScroll(boardRef, dragging !== null);
  // The workspace reloads a while after a section's edit is saved: until a load holds each move, the
  // columns stand where the moves put them, and the next move counts from there.
  const sections = inBoardOrder(
    (workspace?.sections ?? [])
      .filter((section) => section.scope_type === scopeType && section.scope_id === scopeId)
      .map((section) => sectionMoves.over(section.section_id, section, markSection, workspaceLoad)),
  );
  const refusals = useSectionRefusals(sections.some((section) => section.pending === 'failed'));
  const { rows, truncated, patchLocally, settle, reload } = useBoardCards(
    sections.map((section) => section.section_id),
  );
  const columns = sections.map((section) => ({
    section,
    cards: inBoardOrder((rows ?? []).filter((row) => row.section_id === section.section_id)),
  }));
  const name =
    scopeType === 'user'
      ? 'My board'
      : scopeType === 'team'
        ? (teamNames.get(scopeId) ?? scopeId)
        : (projectNames.get(scopeId) ?? scopeId);

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
    patchLocally(patches);
    announce(movedWords(row.title, to.section.name, at, others + 1));
    await inOrder(async () => {
      try {
        for (const { taskId: id, patch } of patches) {
          await invoke('task:edit', { task_id: id, patch });
          settle(id, patch);
        }
      } catch (error) {
        showProblem(error, 'Moving the task');
        reload();
      } finally {
        for (const { taskId: id, patch } of patches) settle(id, patch);
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
    sectionMoves.loaded(workspaceLoad);
    for (const { id, patch } of patches) sectionMoves.add(id, patch);
    setSectionsMoved((n) => n + 1);
    announce(`Moved section “${section.name}” to position ${at + 1} of ${sections.length}.`);
    await inOrder(async () => {
      try {
        for (const { id, patch } of patches) {
          await invoke('collection:edit', { kind: 'section', id, patch });
        }
      } catch (error) {
        showProblem(error, 'Moving the section');
      } finally {
        // Saved or refused, the mirror says now where the columns are: a load from here on shows it.
        for (const { id, patch } of patches) sectionMoves.settle(id, patch, workspaceLoadsAsked());
        void loadWorkspace();
      }
    });
  };

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

  const endDrag = () => {
    setDragging(null);
    setCardDrop(null);
    setSectionDrop(null);
  };

  const onColumnDragOver = (event: DragEvent<HTMLElement>, columnIndex: number, cardCount: number) => {
    if (readOnly || dragging === null) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'move';
    if (dragging.kind === 'card') {
      const sectionId = columns[columnIndex]?.section.section_id ?? '';
      setCardDrop((current) =>
        current?.sectionId === sectionId && current.gap === cardCount
          ? current
          : { sectionId, gap: cardCount },
      );
      return;
    }
    const rect = event.currentTarget.getBoundingClientRect();
    setSectionDrop(columnIndex + (event.clientX > rect.left + rect.width / 2 ? 1 : 0));
  };

  const onCardDragOver = (event: DragEvent<HTMLLIElement>, sectionId: string, cardIndex: number) => {
    // A section dragged over a card is over its column: let the column take it.
    if (readOnly || dragging?.kind !== 'card') return;
    event.preventDefault();
    event.stopPropagation();
    event.dataTransfer.dropEffect = 'move';
    const rect = event.currentTarget.getBoundingClientRect();
    const gap = cardIndex + (event.clientY > rect.top + rect.height / 2 ? 1 : 0);
    setCardDrop((current) =>
      current?.sectionId === sectionId && current.gap === gap ? current : { sectionId, gap },
    );
  };

  const onDrop = (event: DragEvent, sectionId: string) => {
    event.preventDefault();
    const drag = dragging;
    const cardGap = cardDrop;
    const sectionGap = sectionDrop;
    endDrag();
    if (readOnly || drag === null) return;
    if (drag.kind === 'card') {
      const column = columns.find((c) => c.section.section_id === sectionId);
      if (column === undefined) return;
      const gap = cardGap?.sectionId === sectionId ? cardGap.gap : column.cards.length;
      const movedAt = column.cards.findIndex((card) => card.task_id === drag.taskId);
      void moveCard(drag.taskId, sectionId, gapToIndex(gap, movedAt));
    } else if (sectionGap !== null) {
      const movedAt = sections.findIndex((s) => s.section_id === drag.sectionId);
      void moveSection(drag.sectionId, gapToIndex(sectionGap, movedAt));
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
      <div
        className={`board-columns${outOfView.left.length > 0 ? ' more-left' : ''}${outOfView.right.length > 0 ? ' more-right' : ''}`}
        ref={boardRef}
        onPointerDown={() => {
          focusAfter.current = null;
        }}
      >
        {sections.length === 0 ? <p className="empty-state">No sections here yet.</p> : null}
        {columns.map(({ section, cards }, index) => {
          const previous = sections[index - 1];
          const next = sections[index + 1];
          const marks = [
            dropTargetClass(dragging, cardDrop, section.section_id),
            sectionDrop === index ? ' drop-section-before' : '',
            sectionDrop === sections.length && index === sections.length - 1 ? ' drop-section-after' : '',
          ].join('');
          return (
            <section
              key={section.section_id}
              className={`board-column${marks}`}
              data-section-id={section.section_id}
              data-column-name={section.name}
              aria-label={`${section.name}, ${cards.length} tasks`}
              onDragOver={(event) => onColumnDragOver(event, index, cards.length)}
              onDragLeave={(event) => {
                if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
                  setCardDrop(null);
                  setSectionDrop(null);
                }
              }}
              onDrop={(event) => onDrop(event, section.section_id)}
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
                onMove={(step, action) => {
                  focusAfter.current = { sectionId: section.section_id, action };
                  void moveSection(section.section_id, step === 'left' ? index - 1 : index + 1);
                }}
                onDelete={() =>
                  setDeleting({ section, tasks: truncated ? section.task_count : cards.length })
                }
                onDragStart={() => setDragging({ kind: 'section', sectionId: section.section_id })}
                onDragEnd={endDrag}
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
                    readOnly={readOnly}
                    previousName={previous?.name ?? null}
                    nextName={next?.name ?? null}
                    first={cardIndex === 0}
                    last={cardIndex === cards.length - 1}
                    dropMark={
                      cardDrop?.sectionId !== section.section_id
                        ? null
                        : cardDrop.gap === cardIndex
                          ? 'before'
                          : cardDrop.gap === cards.length && cardIndex === cards.length - 1
                            ? 'after'
                            : null
                    }
                    onStep={(step) => stepCard(row.task_id, step)}
                    onDragStart={() => setDragging({ kind: 'card', taskId: row.task_id })}
                    onDragEnd={endDrag}
                    onDragOver={(event) => onCardDragOver(event, section.section_id, cardIndex)}
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

/** Scrolls the board by most of its width, keeping a column's edge in view as the place one came from. */
function scrollBoard(board: HTMLElement | null, direction: -1 | 1): void {
  if (board === null) return;
  board.scrollBy({ left: direction * Math.max(board.clientWidth - 80, 120) });
}

/** "‹ 3 more": columns out of view on one side, named in its tooltip; a press scrolls to them. */
function ScrollButton({
  side,
  names,
  onClick,
}: {
  side: 'left' | 'right';
  names: readonly string[];
  onClick: () => void;
}) {
  if (names.length === 0) return null;
  const count = names.length;
  return (
    <button
      type="button"
      className={`button board-scroll ${side}`}
      aria-label={`Show ${count} ${count === 1 ? 'section' : 'sections'} to the ${side}`}
      title={names.join(', ')}
      onClick={onClick}
    >
      {side === 'left' ? `‹ ${count} more` : `${count} more ›`}
    </button>
  );
}

function dropTargetClass(dragging: Dragging, cardDrop: CardDrop, sectionId: string): string {
  return dragging?.kind === 'card' && cardDrop?.sectionId === sectionId ? ' is-drop-target' : '';
}

// The frame of the pending-changes dialogs (the list of changes, a conflict):
// the title with what goes beside it and Close, then what went wrong (a
// discard or a resolve the service refused) at the top, nothing while all is
// well, then the dialog's body.
import { type ReactNode, useRef } from 'react';
import { ModalDialog } from '../ui/modal-dialog';
import { ProblemLine } from '../ui/problem-line';

export function TrustDialog({
  className,
  titleId,
  title,
  beside,
  testId,
  focus,
  onClose,
  problem,
  children,
}: {
  /** Classes beside the frame's own (a conflict's). */
  className?: string;
  titleId: string;
  title: ReactNode;
  /** Said after the title (how many changes wait). */
  beside?: ReactNode;
  testId: string;
  /** What takes focus on open: the title (a conflict is read first) or Close. */
  focus: 'title' | 'close';
  onClose: () => void;
  problem: string | null;
  children: ReactNode;
}) {
  const titleRef = useRef<HTMLHeadingElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  return (
    <ModalDialog
      className={className === undefined ? 'palette trust-dialog' : `palette trust-dialog ${className}`}
      labelledBy={titleId}
      testId={testId}
      initialFocus={focus === 'title' ? titleRef : closeRef}
      onClose={onClose}
    >
      <header className="editor-header">
        <h2 id={titleId} ref={titleRef} tabIndex={focus === 'title' ? -1 : undefined}>
          {title}
        </h2>
        {beside}
        <span className="spacer" />
        <button ref={closeRef} type="button" className="button" onClick={onClose}>
          Close
        </button>
      </header>
      <ProblemLine className="trust-problem" problem={problem} />
      {children}
    </ModalDialog>
  );
}

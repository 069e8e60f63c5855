// The one modal dialog of the app: a native <dialog> opened with showModal(), so the page behind is inert,
// Tab stays inside, Escape cancels and ::backdrop dims; closing gives focus back to what had it before.
import { type ReactNode, type RefObject, useLayoutEffect, useRef } from 'react';

const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** The dialog's own Tab stops, in order (a dialog opened inside it keeps its own). */
function tabStops(dialog: HTMLDialogElement): HTMLElement[] {
  return [...dialog.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.closest('dialog') === dialog && element.getClientRects().length > 0,
  );
}

type ModalDialogProps = {
  /** Called when the person asks to close: Escape, a click on the backdrop. The owner unmounts the dialog. */
  onClose: () => void;
  className: string;
  /** alertdialog for a question that needs an answer (confirmations); dialog otherwise. */
  alert?: boolean;
  label?: string;
  labelledBy?: string;
  /** What takes focus on open; without it, the platform focuses the first focusable element (or autoFocus). */
  initialFocus?: RefObject<HTMLElement | null>;
  testId?: string;
  /** Where focus goes on close when what had it is gone by then (a menu item that closed with its menu). */
  returnFocus?: RefObject<HTMLElement | null>;
  children: ReactNode;
};

export function ModalDialog({
  onClose,
  className,
  alert = false,
  label,
  labelledBy,
  initialFocus,
  testId,
  returnFocus,
  children,
}: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const onCloseRef = useRef(onClose);
  useLayoutEffect(() => {
    onCloseRef.current = onClose;
  });
  const mounted = useRef(false);

  // A layout effect, so the dialog is modal before the first paint and its cleanup runs before React
  // removes the element: the close and the focus hand-back happen while it is still in the page.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (dialog === null) return;
    const previous = document.activeElement;
    // A dialog opened from inside another one: if its opener goes away (the change it confirmed was
    // discarded), focus stays in that outer dialog rather than falling to the inert page.
    const outer = dialog.parentElement?.closest('dialog') ?? null;
    const fallback = returnFocus?.current ?? null;
    mounted.current = true;
    if (!dialog.open) dialog.showModal();
    initialFocus?.current?.focus();
    return () => {
      mounted.current = false;
      if (dialog.open) dialog.close();
      const handBack = () => {
        if (previous instanceof HTMLElement && previous.isConnected) previous.focus();
        else if (fallback?.isConnected) fallback.focus();
        else if (outer?.open) tabStops(outer)[0]?.focus();
      };
      handBack();
      // The opener may leave in this same commit (it lived beside the dialog in a row being removed):
      // once React is done, a focus left on nothing goes to the next best place.
      queueMicrotask(() => {
        const active = document.activeElement;
        if (active === null || active === document.body) handBack();
      });
    };
    // Opened once per mount; the owner mounts a new dialog to open another.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <dialog
      ref={ref}
      className={`modal ${className}`}
      {...(alert ? { role: 'alertdialog' } : {})}
      aria-modal="true"
      aria-label={label}
      aria-labelledby={labelledBy}
      data-testid={testId}
      onKeyDown={(event) => {
        // Escape belongs to this dialog (the platform turns it into cancel): the app's own Escape
        // shortcuts (close the task, …) must not see it as well.
        if (event.key === 'Escape') event.stopPropagation();
        // The platform keeps Tab off the inert page but may hand it to the browser's own UI past the
        // last stop; going round inside the dialog is what a person expects in an app window.
        if (event.key !== 'Tab' || event.defaultPrevented) return;
        const dialog = event.currentTarget;
        if (document.activeElement?.closest('dialog') !== dialog) return;
        const stops = tabStops(dialog);
        const first = stops[0];
        const last = stops[stops.length - 1];
        if (first === undefined || last === undefined) return;
        const active = document.activeElement;
        if (event.shiftKey ? active === first || !stops.includes(active as HTMLElement) : active === last) {
          event.preventDefault();
          (event.shiftKey ? last : first).focus();
        }
      }}
      onClose={(event) => {
        // The platform closed it (Escape): tell the owner, unless the owner is the one closing it. React
        // passes a nested dialog's close up the tree; that one is not ours.
        if (event.target === event.currentTarget && mounted.current) onCloseRef.current();
      }}
      onMouseDown={(event) => {
        // A press on the backdrop lands on the <dialog> itself, outside its box.
        if (event.target !== event.currentTarget) return;
        const box = event.currentTarget.getBoundingClientRect();
        const inside =
          event.clientX >= box.left &&
          event.clientX <= box.right &&
          event.clientY >= box.top &&
          event.clientY <= box.bottom;
        if (!inside) onCloseRef.current();
      }}
    >
      {children}
    </dialog>
  );
}

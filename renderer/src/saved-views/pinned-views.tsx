// The sidebar's pinned views, in pin order: each opens its view; Alt+↑ and
// Alt+↓ move the focused one, and a pin dragged onto another goes before it.
// A move is one pin's `position` edit through the outbox (offline too), so the
// order stands at once and the pin is marked until the service has it.
import { type KeyboardEvent, useRef } from 'react';
import type { ViewPinSummary, ViewSidebar } from '../../../ipc/view-schemas';
import { invoke } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { announce, navigate, sameView, useView, type View } from '../store/view-store';
import { useDropTarget } from '../ui/drop-target';
import { movedPosition } from '../ui/pin-order';
import { SyncMarkBadge } from '../ui/sync-mark-badge';
import { markOfState } from '../vocabulary/sync-mark-words';

const PIN_TYPE = 'application/x-svc-view-pin';

async function movePin(pins: readonly ViewPinSummary[], pin: ViewPinSummary, to: number, name: string) {
  const position = movedPosition(pins, pin.pin_id, to);
  if (position === null) return;
  try {
    await invoke('collection:edit', { kind: 'view_pin', id: pin.pin_id, patch: { position } });
    announce(`Moved ‘${name}’ to place ${to + 1} of ${pins.length}.`);
  } catch (error) {
    showProblem(error, 'Moving the pinned view');
  }
}

function PinnedView({
  pin,
  name,
  index,
  sidebar,
  readOnly,
}: {
  pin: ViewPinSummary;
  name: string;
  index: number;
  sidebar: ViewSidebar;
  readOnly: boolean;
}) {
  const view: View = { kind: 'saved-view', viewId: pin.view_id };
  const current = useView((state) => sameView(state.view, view));
  const button = useRef<HTMLButtonElement>(null);
  const keys = (event: KeyboardEvent) => {
    if (readOnly || !event.altKey || (event.key !== 'ArrowUp' && event.key !== 'ArrowDown')) return;
    event.preventDefault();
    void movePin(sidebar.pins, pin, index + (event.key === 'ArrowUp' ? -1 : 1), name).then(() =>
      // The list is drawn again in its new order: the moved pin keeps the focus.
      requestAnimationFrame(() =>
        document.querySelector<HTMLButtonElement>(`[data-pin-id="${pin.pin_id}"] button`)?.focus(),
      ),
    );
  };
  const drop = useDropTarget(
    (event) => !readOnly && event.dataTransfer.types.includes(PIN_TYPE),
    'move',
    (event) => {
      const dragged = sidebar.pins.find((p) => p.pin_id === event.dataTransfer.getData(PIN_TYPE));
      if (dragged === undefined) return;
      const from = sidebar.pins.indexOf(dragged);
      // Dropped on a pin: it goes just before it.
      void movePin(sidebar.pins, dragged, from < index ? index - 1 : index, nameOf(sidebar, dragged));
    },
  );
  return (
    <li
      className={`nav-drop${drop.over ? ' is-drop-target' : ''}`}
      data-pin-id={pin.pin_id}
      draggable={!readOnly}
      onDragStart={(event) => {
        event.dataTransfer.setData(PIN_TYPE, pin.pin_id);
        event.dataTransfer.effectAllowed = 'move';
      }}
      {...drop.handlers}
    >
      <button
        ref={button}
        type="button"
        className={`nav-item${current ? ' is-current' : ''}`}
        aria-current={current ? 'page' : undefined}
        aria-keyshortcuts={readOnly ? undefined : 'Alt+ArrowUp Alt+ArrowDown'}
        onClick={() => navigate(view)}
        onKeyDown={keys}
      >
        <span className="nav-label">{name}</span>
        <SyncMarkBadge mark={markOfState(pin.pending)} compact kinds="view_pins" />
      </button>
    </li>
  );
}

function nameOf(sidebar: ViewSidebar, pin: ViewPinSummary): string {
  return sidebar.views.find((view) => view.view_id === pin.view_id)?.name ?? pin.view_id;
}

/**
 * One pin per view: a pin the service refused (the view was pinned already, 409) stands beside the
 * service's until the person gives it up; the view is listed once, where its standing pin puts it,
 * and the refusal is said on the view.
 */
export function shownPins(pins: readonly ViewPinSummary[]): ViewPinSummary[] {
  const standing = new Set(pins.filter((pin) => pin.pending !== 'failed').map((pin) => pin.view_id));
  const seen = new Set<string>();
  return pins.filter((pin) => {
    if (seen.has(pin.view_id) || (pin.pending === 'failed' && standing.has(pin.view_id))) return false;
    seen.add(pin.view_id);
    return true;
  });
}

/** The pinned views' entries (inside the sidebar's "Pinned views" group); nothing when none is pinned. */
export function PinnedViews({ sidebar: all, readOnly }: { sidebar: ViewSidebar; readOnly: boolean }) {
  const sidebar = { ...all, pins: shownPins(all.pins) };
  return (
    <>
      {sidebar.pins.map((pin, index) => (
        <PinnedView
          key={pin.pin_id}
          pin={pin}
          name={nameOf(sidebar, pin)}
          index={index}
          sidebar={sidebar}
          readOnly={readOnly}
        />
      ))}
    </>
  );
}

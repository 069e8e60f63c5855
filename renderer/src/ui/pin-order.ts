// Where a pin goes in the sidebar's order: a pin's `position` is a number, so
// a move writes one pin only, between its new neighbours (and a new pin after
// the last), instead of renumbering the others.
import type { ViewPinSummary } from '../../../ipc/view-schemas';

const positionOf = (pin: ViewPinSummary | undefined, fallback: number) => pin?.position ?? fallback;

/** The position of a pin put at `index` of `pins` (the order without it). */
export function positionAt(pins: readonly ViewPinSummary[], index: number): number {
  if (pins.length === 0) return 1;
  if (index <= 0) return positionOf(pins[0], 1) - 1;
  if (index >= pins.length) return positionOf(pins[pins.length - 1], pins.length) + 1;
  const before = positionOf(pins[index - 1], index);
  const after = positionOf(pins[index], before + 1);
  return (before + after) / 2;
}

/** The position that moves `pinId` to `to` (an index in the current order), or null when it stays. */
export function movedPosition(pins: readonly ViewPinSummary[], pinId: string, to: number): number | null {
  const from = pins.findIndex((pin) => pin.pin_id === pinId);
  if (from === -1 || to < 0 || to >= pins.length || to === from) return null;
  return positionAt(
    pins.filter((pin) => pin.pin_id !== pinId),
    to,
  );
}

/** The position of a new pin: after the last. */
export function nextPosition(pins: readonly ViewPinSummary[]): number {
  return positionAt(pins, pins.length);
}

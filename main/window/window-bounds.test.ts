import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { placeWindow, type Rectangle } from './window-bounds';

const laptop: Rectangle = { x: 0, y: 25, width: 1440, height: 875 };
const monitorOnTheRight: Rectangle = { x: 1440, y: 0, width: 2560, height: 1440 };
const defaultSize = { width: 1200, height: 800 };
const minimumSize = { width: 720, height: 480 };
const place = (saved: Rectangle | undefined, workAreas: readonly Rectangle[] = [laptop, monitorOnTheRight]) =>
  placeWindow({ saved, workAreas, defaultSize, minimumSize });

/** A rectangle from its four numbers, in the order Electron's Rectangle names them. */
const rect = (x: number, y: number, width: number, height: number): Rectangle => ({ x, y, width, height });

function isInside(inner: Rectangle, outer: Rectangle): boolean {
  return (
    inner.x >= outer.x &&
    inner.y >= outer.y &&
    inner.x + inner.width <= outer.x + outer.width &&
    inner.y + inner.height <= outer.y + outer.height
  );
}

describe('where the window opens', () => {
  test('with nothing saved: the default size, centred on the primary display', () => {
    expect(place(undefined)).toEqual({ x: 120, y: 62, width: 1200, height: 800 });
  });

  test('saved bounds that fit a display are kept as they were', () => {
    const saved = { x: 1600, y: 100, width: 1800, height: 1200 };
    expect(place(saved)).toEqual(saved);
  });

  test('a window hanging off the edge is moved back onto the display it overlaps most', () => {
    expect(place({ x: 3000, y: 900, width: 1200, height: 800 })).toEqual(rect(2800, 640, 1200, 800));
  });

  test('a window left on an unplugged monitor comes back centred on the primary display', () => {
    expect(place({ x: 1600, y: 100, width: 1000, height: 700 }, [laptop])).toEqual(rect(220, 112, 1000, 700));
  });

  test('a window larger than its display shrinks to the display', () => {
    expect(place({ x: -50, y: 0, width: 3000, height: 2000 }, [laptop])).toEqual(laptop);
  });

  test('a window saved smaller than the minimum grows to it', () => {
    expect(place({ x: 10, y: 40, width: 100, height: 50 })).toEqual(rect(10, 40, 720, 480));
  });

  test('a display smaller than the minimum size wins over the minimum', () => {
    const tiny = { x: 0, y: 0, width: 640, height: 400 };
    expect(place(undefined, [tiny])).toEqual(tiny);
  });

  test('fractional or non-finite saved bounds are rounded or ignored', () => {
    expect(place({ x: 10.4, y: 40.6, width: 800.5, height: 600.2 })).toEqual(rect(10, 41, 801, 600));
    expect(place({ x: Number.NaN, y: 0, width: 800, height: 600 })).toEqual(place(undefined));
  });

  test('with no display reported: the default size at the origin', () => {
    expect(place(undefined, [])).toEqual({ x: 0, y: 0, width: 1200, height: 800 });
  });
});

const rectangle = fc.record({
  x: fc.integer({ min: -5000, max: 5000 }),
  y: fc.integer({ min: -5000, max: 5000 }),
  width: fc.integer({ min: 1, max: 6000 }),
  height: fc.integer({ min: 1, max: 6000 }),
});
const display = fc.record({
  x: fc.integer({ min: -4000, max: 4000 }),
  y: fc.integer({ min: -4000, max: 4000 }),
  width: fc.integer({ min: 320, max: 5120 }),
  height: fc.integer({ min: 240, max: 2880 }),
});

test('whatever was saved and whatever the displays, the window lies entirely on one of them', () => {
  fc.assert(
    fc.property(
      fc.option(rectangle, { nil: undefined }),
      fc.array(display, { minLength: 1, maxLength: 4 }),
      (saved, areas) => {
        const placed = place(saved, areas);
        expect(areas.some((area) => isInside(placed, area))).toBe(true);
        if (
          saved &&
          areas.some((area) => isInside(saved, area)) &&
          saved.width >= 720 &&
          saved.height >= 480
        ) {
          expect(placed).toEqual(saved);
        }
      },
    ),
  );
});

import { describe, expect, test } from 'vitest';
import { edgeScrollSpeed } from './drag-edge-scroll';

const board = { left: 200, right: 1000, top: 100, bottom: 700 };

describe('the board scrolling under a drag held near its edge', () => {
  test.each([
    ['in the middle: still', { x: 600, y: 400 }, 0],
    ['at the right edge: rightward at full speed', { x: 1000, y: 400 }, 1000],
    ['just inside the right band: rightward, slowly', { x: 951, y: 400 }, 125],
    ['at the left edge: leftward at full speed', { x: 200, y: 400 }, -1000],
    ['halfway into the left band: leftward at half speed', { x: 228, y: 400 }, -500],
    ['past the right edge (over the editor): still', { x: 1010, y: 400 }, 0],
    ['left of the board (over the sidebar): still', { x: 190, y: 400 }, 0],
    ['below the board (over the status bar): still', { x: 990, y: 710 }, 0],
  ])('%s', (_where, pointer, step) => {
    expect(edgeScrollSpeed(pointer, board)).toBe(step);
  });

  test('a narrow board keeps a middle where nothing scrolls', () => {
    const narrow = { left: 0, right: 100, top: 0, bottom: 100 };
    expect(edgeScrollSpeed({ x: 50, y: 50 }, narrow)).toBe(0);
    expect(edgeScrollSpeed({ x: 99, y: 50 }, narrow)).toBeGreaterThan(0);
  });
});

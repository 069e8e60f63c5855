// The tray icon variants differ where they should: the badge dot's color, and
// grey for offline; transparent corners outside the rounded square.
import { expect, test } from 'vitest';
import { BADGE, BADGE_COLORS, trayIconBitmap } from './tray-icon-bitmap';

const SIZE = 32;
function rgbaAt(pixels: Buffer, x: number, y: number): [number, number, number, number] {
  const at = (Math.floor(y * SIZE) * SIZE + Math.floor(x * SIZE)) * 4;
  return [pixels[at + 2] ?? -1, pixels[at + 1] ?? -1, pixels[at] ?? -1, pixels[at + 3] ?? -1];
}

test.each([
  { variant: 'unseen', badge: BADGE_COLORS.unseen },
  { variant: 'conflicts', badge: BADGE_COLORS.conflicts },
] as const)('$variant has its colored dot', ({ variant, badge }) => {
  expect(rgbaAt(trayIconBitmap(variant, SIZE), BADGE.x, BADGE.y)).toEqual([...badge, 255]);
});

test('normal has no dot: blue where the badge would be; offline is grey there', () => {
  const [r, , b] = rgbaAt(trayIconBitmap('normal', SIZE), BADGE.x, BADGE.y);
  expect(b).toBeGreaterThan(r + 80);
  const [gr, gg, gb] = rgbaAt(trayIconBitmap('offline', SIZE), BADGE.x, BADGE.y);
  expect(Math.max(gr, gg, gb) - Math.min(gr, gg, gb)).toBeLessThan(25);
});

test('a size×size BGRA bitmap with transparent corners', () => {
  const pixels = trayIconBitmap('normal', SIZE);
  expect(pixels.length).toBe(SIZE * SIZE * 4);
  expect(rgbaAt(pixels, 0, 0)[3]).toBe(0);
  expect(rgbaAt(pixels, 0.5, 0.5)[3]).toBe(255);
});

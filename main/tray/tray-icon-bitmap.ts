// The tray icon's pixels, drawn in code like build/generate-icons.js draws the
// app icon (a white check on a rounded square) so no image files ship: blue
// normally, grey when offline or paused, with an orange dot for unseen changes
// and a red dot for conflicts. BGRA, as Electron's nativeImage.createFromBitmap takes.
import type { TrayIconVariant } from '../../services/notify/tray-model';

const BLUE_TOP = [64, 132, 255];
const BLUE_BOTTOM = [24, 76, 196];
const GREY_TOP = [150, 156, 166];
const GREY_BOTTOM = [104, 110, 120];
export const BADGE_COLORS: Readonly<Record<'unseen' | 'conflicts', readonly [number, number, number]>> = {
  unseen: [255, 149, 0],
  conflicts: [230, 40, 40],
};

function roundedSquareDistance(x: number, y: number, inset: number, r: number): number {
  const half = 0.5 - inset;
  const qx = Math.abs(x - 0.5) - (half - r);
  const qy = Math.abs(y - 0.5) - (half - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

function segmentDistance(x: number, y: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

/** Center and radius of the badge dot, in units of the icon's size. */
export const BADGE = { x: 0.78, y: 0.22, r: 0.2 } as const;

/** `size`×`size` BGRA pixels of the tray icon for `variant`. */
export function trayIconBitmap(variant: TrayIconVariant, size: number): Buffer {
  const pixels = Buffer.alloc(size * size * 4);
  const pixel = 1 / size;
  const [top, bottom] = variant === 'offline' ? [GREY_TOP, GREY_BOTTOM] : [BLUE_TOP, BLUE_BOTTOM];
  const badge = variant === 'unseen' || variant === 'conflicts' ? BADGE_COLORS[variant] : null;
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const x = (column + 0.5) / size;
      const y = (row + 0.5) / size;
      const shape = Math.min(1, Math.max(0, 0.5 - roundedSquareDistance(x, y, 0.04, 0.2) / pixel));
      const check = Math.min(
        segmentDistance(x, y, 0.27, 0.53, 0.43, 0.69),
        segmentDistance(x, y, 0.43, 0.69, 0.74, 0.36),
      );
      const ink = Math.min(1, Math.max(0, 0.5 - (check - 0.085) / pixel));
      let rgb = top.map((t, i) => t + ((bottom[i] as number) - t) * y);
      rgb = rgb.map((c) => c + (255 - c) * ink);
      let alpha = shape;
      if (badge) {
        const dot = Math.hypot(x - BADGE.x, y - BADGE.y);
        // A white ring keeps the dot readable on the icon and on any menu bar.
        const ring = Math.min(1, Math.max(0, 0.5 - (dot - BADGE.r - 0.06) / pixel));
        const fill = Math.min(1, Math.max(0, 0.5 - (dot - BADGE.r) / pixel));
        rgb = rgb.map((c) => c + (255 - c) * ring * (1 - fill));
        rgb = rgb.map((c, i) => c + ((badge[i] as number) - c) * fill);
        alpha = Math.max(alpha, ring);
      }
      const at = (row * size + column) * 4;
      pixels[at] = Math.round(rgb[2] as number);
      pixels[at + 1] = Math.round(rgb[1] as number);
      pixels[at + 2] = Math.round(rgb[0] as number);
      pixels[at + 3] = Math.round(alpha * 255);
    }
  }
  return pixels;
}

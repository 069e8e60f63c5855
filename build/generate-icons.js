// Draws the app icon (a white check on a blue rounded square) into build/icon.png
// and build/icons/<n>x<n>.png for electron-builder, with a small PNG encoder on
// node:zlib. Run `node build/generate-icons.js` after changing the drawing.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

const SIZES = [32, 64, 128, 256, 512, 1024];
const here = import.meta.dirname;

/** Signed distance from (x, y) to a rounded square spanning [0, 1] with corner radius r (negative inside). */
function roundedSquareDistance(x, y, inset, r) {
  const half = 0.5 - inset;
  const qx = Math.abs(x - 0.5) - (half - r);
  const qy = Math.abs(y - 0.5) - (half - r);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Distance from (x, y) to the segment a–b. */
function segmentDistance(x, y, ax, ay, bx, by) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(x - (ax + t * dx), y - (ay + t * dy));
}

function draw(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const pixel = 1 / size;
  const top = [64, 132, 255];
  const bottom = [24, 76, 196];
  for (let row = 0; row < size; row++) {
    for (let column = 0; column < size; column++) {
      const x = (column + 0.5) / size;
      const y = (row + 0.5) / size;
      // Coverage from the distance to the edge gives anti-aliased edges at every size.
      const shape = Math.min(1, Math.max(0, 0.5 - roundedSquareDistance(x, y, 0.06, 0.2) / pixel));
      const stroke = 0.075;
      const check = Math.min(
        segmentDistance(x, y, 0.29, 0.52, 0.44, 0.67),
        segmentDistance(x, y, 0.44, 0.67, 0.72, 0.36),
      );
      const mark = Math.min(1, Math.max(0, 0.5 - (check - stroke / 2) / pixel));
      const offset = (row * size + column) * 4;
      for (let channel = 0; channel < 3; channel++) {
        const background = top[channel] + (bottom[channel] - top[channel]) * y;
        pixels[offset + channel] = Math.round(background + (255 - background) * mark);
      }
      pixels[offset + 3] = Math.round(255 * shape);
    }
  }
  return pixels;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function encodePng(size, rgba) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header[8] = 8; // bits per channel
  header[9] = 6; // RGBA
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let row = 0; row < size; row++) {
    rows[row * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(rows, row * (size * 4 + 1) + 1, row * size * 4, (row + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(join(here, 'icons'), { recursive: true });
for (const size of SIZES) {
  const png = encodePng(size, draw(size));
  writeFileSync(join(here, 'icons', `${size}x${size}.png`), png);
  if (size === 1024) writeFileSync(join(here, 'icon.png'), png);
}

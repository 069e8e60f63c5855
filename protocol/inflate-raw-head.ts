// The start of a deflated zip entry, with node:zlib, for the upload judge
// (upload-rules.ts takes it injected, so that it runs anywhere). Node only: the
// emulator and the client's sync/ use it; the renderer never imports it.
import { constants, inflateRawSync } from 'node:zlib';
import type { InflateRawHead } from './zip-directory';

// Deflate's worst expansion is about 1032:1; its best compression of `n` bytes
// never takes more than about 2n + a block header. So this much input gives any
// head asked for, and bounds what a hostile entry can make us inflate.
const MAX_RATIO = 1032;
const HEADER_BYTES = 4096;

export const inflateRawHead: InflateRawHead = (compressed, maxBytes) => {
  const input = compressed.subarray(0, maxBytes * 2 + HEADER_BYTES);
  try {
    // A sync flush at the end: the input is cut short on purpose, and what it inflates to is still given.
    const out = inflateRawSync(input, {
      finishFlush: constants.Z_SYNC_FLUSH,
      maxOutputLength: input.length * MAX_RATIO + 1,
    });
    return out.subarray(0, maxBytes);
  } catch {
    return null;
  }
};

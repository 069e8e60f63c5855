// A zip's central directory read from its bytes, without inflating anything:
// the names, methods and sizes an upload is judged by (a zip that unpacks to
// over ten times the limit, a zip holding a forbidden file, an Office file with
// macros). Plain Uint8Array code, so it runs wherever the judge runs.

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated; others are read by name only. */
  method: number;
  /** Bit 0: the entry is encrypted and its bytes cannot be looked at. */
  encrypted: boolean;
  compressedSize: number;
  uncompressedSize: number;
  localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;

const utf8 = new TextDecoder('utf-8');

function u64(view: DataView, at: number): number {
  return Number(view.getBigUint64(at, true));
}

/** The zip64 extra field's values, in the order the spec writes them (only those whose 32-bit field is full). */
function zip64Values(view: DataView, start: number, length: number): number[] {
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === 0x0001) {
      const values: number[] = [];
      for (let v = at + 4; v + 8 <= at + 4 + size && v + 8 <= view.byteLength; v += 8)
        values.push(u64(view, v));
      return values;
    }
    at += 4 + size;
  }
  return [];
}

/**
 * The entries of a zip's central directory, or null when the bytes hold no
 * readable one (not a zip, or cut short). Sizes are what the directory says:
 * that is what a zip unpacks to, as the service counts it.
 */
export function readZipDirectory(bytes: Uint8Array): ZipEntry[] | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const lowest = Math.max(0, bytes.length - 22 - MAX16);
  let eocd = -1;
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return null;
  let count = view.getUint16(eocd + 10, true);
  let directorySize = view.getUint32(eocd + 12, true);
  let directoryOffset = view.getUint32(eocd + 16, true);
  if (count === MAX16 || directorySize === MAX32 || directoryOffset === MAX32) {
    const locator = eocd - 20;
    if (locator < 0 || view.getUint32(locator, true) !== ZIP64_LOCATOR) return null;
    const record = u64(view, locator + 8);
    if (record + 56 > bytes.length || view.getUint32(record, true) !== ZIP64_EOCD) return null;
    count = u64(view, record + 32);
    directorySize = u64(view, record + 40);
    directoryOffset = u64(view, record + 48);
  }
  if (directoryOffset + directorySize > bytes.length) return null;
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_ENTRY) return null;
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    let compressedSize = view.getUint32(at + 20, true);
    let uncompressedSize = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + 46;
    if (nameStart + nameLength + extraLength > bytes.length) return null;
    const wide = zip64Values(view, nameStart + nameLength, extraLength);
    if (uncompressedSize === MAX32) uncompressedSize = wide.shift() ?? uncompressedSize;
    if (compressedSize === MAX32) compressedSize = wide.shift() ?? compressedSize;
    if (localHeaderOffset === MAX32) localHeaderOffset = wide.shift() ?? localHeaderOffset;
    entries.push({
      name: utf8.decode(bytes.subarray(nameStart, nameStart + nameLength)),
      method,
      encrypted: (flags & 1) === 1,
      compressedSize,
      uncompressedSize,
      localHeaderOffset,
    });
    at = nameStart + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The entry's bytes as stored in the zip (compressed when its method compresses), or null when out of bounds. */
export function zipEntryData(bytes: Uint8Array, entry: ZipEntry): Uint8Array | null {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (view.getUint32(at, true) !== LOCAL_HEADER) return null;
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  return end > bytes.length ? null : bytes.subarray(start, end);
}

/**
 * Inflates raw deflate data into at most `maxBytes` (the start of the entry;
 * `compressed` may be cut short), or null when it cannot. Injected: how depends
 * on where the judge runs (node:zlib in Node).
 */
export type InflateRawHead = (compressed: Uint8Array, maxBytes: number) => Uint8Array | null;

/** The first `maxBytes` of an entry's content, or null when they cannot be read (encrypted, unknown method). */
export function zipEntryHead(
  bytes: Uint8Array,
  entry: ZipEntry,
  maxBytes: number,
  inflateRawHead: InflateRawHead,
): Uint8Array | null {
  if (entry.encrypted) return null;
  const data = zipEntryData(bytes, entry);
  if (data === null) return null;
  if (entry.method === 0) return data.subarray(0, maxBytes);
  if (entry.method === 8) return inflateRawHead(data, maxBytes);
  return null;
}

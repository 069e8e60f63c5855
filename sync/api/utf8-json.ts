// JSON read straight off a body's UTF-8 bytes, as
// JSON.parse(new TextDecoder().decode(bytes)) reads it, with less work where
// a body holds characters past ASCII (a task list's titles and descriptions
// in any language). Decoding such a body makes one UTF-16 string of all of
// it, twice its size, which JSON.parse then reads; here each byte is read as
// one character (a one-byte string) and only the strings holding other
// characters are decoded, alone. A page of 1 000 of the emulator's tasks
// (700 kB, 19 000 bytes past ASCII) parses in 6.3-7.3 ms against 7.7-8.2, and
// one whose titles and descriptions are all Cyrillic in 7.2 against 8.2; the
// pull worker applying a first sync's 100 pages of them took 3 650-3 750 ms of
// CPU against 3 780-4 150 (three runs each, taken in turn in one process).
//
// Why that reads the same: a byte of a multi-byte UTF-8 character is 0x80 or
// above, so it is never one of JSON's own characters (quotes, backslash,
// brackets): read as one character each, the body parses into the same
// structure, and only inside strings (or keys) can such bytes appear. A string
// holding characters 0x80-0xFF then holds exactly its UTF-8 bytes, which
// decoding on their own turns into what the whole body's decoding gives
// (including U+FFFD for bytes that are not UTF-8: a malformed sequence ends
// at the first byte that cannot continue it, which for a string is at the
// latest its closing quote). Unless an escape made a character of 0x80 or
// above (`\u00e9`): it would be taken for a byte, so such a body is decoded
// whole as before. Escapes below 0x80 are plain characters either way.
import { Buffer } from 'node:buffer';

/** A character a byte of 0x80 or above was read as. */
const NOT_ASCII = /[\x80-\xff]/;
/** A `\u` escape of a character past ASCII (or a literal backslash before `u`: decoded whole, to be sure). */
const ESCAPE_PAST_ASCII = /\\u(?!00[0-7])/;
/** UTF-8's byte order mark, read as three characters: the decoder drops it, and JSON.parse would refuse it. */
const BYTE_ORDER_MARK = '\xef\xbb\xbf';

const utf8 = new TextDecoder();

/** A string's bytes, read one a character, decoded as UTF-8. */
function decoded(text: string): string {
  return NOT_ASCII.test(text) ? Buffer.from(text, 'latin1').toString('utf8') : text;
}

/** Decodes an object's keys in place, keeping their order (and an own `__proto__` an own property). */
function decodeKeys(record: Record<string, unknown>): void {
  const entries = Object.keys(record).map((key) => [key, record[key]] as const);
  for (const [key] of entries) delete record[key];
  for (const [key, value] of entries)
    Object.defineProperty(record, decoded(key), {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
}

/**
 * Decodes, in place, the strings and keys of a value parsed from bytes read
 * one a character. Without recursion: JSON.parse reads a body nested 100 000
 * deep (a hostile page), and so must this.
 */
function decodeStrings(root: unknown): unknown {
  if (typeof root === 'string') return decoded(root);
  const pending: unknown[] = [root];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const item: unknown = value[i];
        if (typeof item === 'string') {
          if (NOT_ASCII.test(item)) value[i] = decoded(item);
        } else if (typeof item === 'object' && item !== null) pending.push(item);
      }
      continue;
    }
    const record = value as Record<string, unknown>;
    let keysPastAscii = false;
    for (const key in record) {
      if (NOT_ASCII.test(key)) keysPastAscii = true;
      const field = record[key];
      if (typeof field === 'string') {
        if (NOT_ASCII.test(field)) record[key] = decoded(field);
      } else if (typeof field === 'object' && field !== null) pending.push(field);
    }
    // Rare: a key past ASCII (no field the contract names has one).
    if (keysPastAscii) decodeKeys(record);
  }
  return root;
}

/**
 * Parses UTF-8 bytes as JSON: the same value as
 * `JSON.parse(new TextDecoder().decode(bytes))`, and the same SyntaxError
 * when they are not JSON.
 */
export function parseUtf8Json(bytes: ArrayBuffer | Uint8Array): unknown {
  const buffer =
    bytes instanceof Uint8Array
      ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
      : Buffer.from(bytes);
  let text = buffer.toString('latin1');
  if (text.startsWith(BYTE_ORDER_MARK)) text = text.slice(BYTE_ORDER_MARK.length);
  if (ESCAPE_PAST_ASCII.test(text)) return JSON.parse(utf8.decode(bytes));
  return decodeStrings(JSON.parse(text));
}

// What a file is, judged by its bytes and never by its name: a small table of
// magic numbers for the binary formats the upload rules name or allow, and
// the WHATWG MIME sniffing signatures for HTML, XML and SVG in text. Only the
// formats the contract's rules need are told apart; anything else is
// `binary` (or `text` when it is UTF-8).

export type SniffedFormat =
  | 'png'
  | 'jpeg'
  | 'gif'
  | 'webp'
  | 'pdf'
  | 'zip'
  /** Told from a plain zip by its entries (upload-rules.ts), not by its first bytes. */
  | 'docx'
  | 'xlsx'
  | 'pptx'
  | 'text'
  | 'executable'
  | 'script'
  | 'html'
  | 'svg'
  | 'xml'
  | 'binary';

export interface Sniffed {
  format: SniffedFormat;
  /** What the bytes are, in words for a refusal ("a Windows executable"). */
  label: string;
  /** Text that opens with an HTML fragment (`<p>`, `<div>`, `<!--`): HTML to a browser sniffing it. */
  htmlLike?: boolean;
}

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  for (let i = 0; i < signature.length; i++) if (bytes[at + i] !== signature[i]) return false;
  return true;
}

const ascii = (text: string): number[] => [...text].map((c) => c.charCodeAt(0));

/** A Windows (MZ) executable: the MZ header and its PE signature, or a DOS header with binary bytes. */
function isWindowsExecutable(bytes: Uint8Array): boolean {
  if (!startsWith(bytes, ascii('MZ')) || bytes.length < 64) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const peAt = view.getUint32(0x3c, true);
  if (peAt + 4 <= bytes.length && startsWith(bytes, [0x50, 0x45, 0, 0], peAt)) return true;
  return bytes.subarray(0, 64).includes(0);
}

const MACH_O = [
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  // Universal ("fat") binaries; Java class files share it, and run as programs too.
  [0xca, 0xfe, 0xba, 0xbe],
] as const;

/** The binary formats, by their first bytes. */
function sniffBinary(bytes: Uint8Array): Sniffed | null {
  if (isWindowsExecutable(bytes)) return { format: 'executable', label: 'a Windows executable' };
  if (startsWith(bytes, [0x7f, 0x45, 0x4c, 0x46]))
    return { format: 'executable', label: 'an ELF executable' };
  if (MACH_O.some((magic) => startsWith(bytes, magic)))
    return { format: 'executable', label: 'a Mach-O executable' };
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))
    return { format: 'png', label: 'a PNG image' };
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return { format: 'jpeg', label: 'a JPEG image' };
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a')))
    return { format: 'gif', label: 'a GIF image' };
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8))
    return { format: 'webp', label: 'a WebP image' };
  if (startsWith(bytes, ascii('%PDF-'))) return { format: 'pdf', label: 'a PDF document' };
  // A local file header, or the end record of an empty zip.
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06]))
    return { format: 'zip', label: 'a ZIP archive' };
  return null;
}

/** After a UTF-8 byte order mark and the whitespace WHATWG sniffing skips. */
function textStart(bytes: Uint8Array): number {
  let at = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (at < bytes.length && [0x09, 0x0a, 0x0c, 0x0d, 0x20].includes(bytes[at] as number)) at++;
  return at;
}

/** Case-insensitive ASCII match of `word` at `at`, followed by a tag-terminating byte when `tag`. */
function opensWith(bytes: Uint8Array, at: number, word: string, tag: boolean): boolean {
  if (bytes.length < at + word.length + (tag ? 1 : 0)) return false;
  for (let i = 0; i < word.length; i++) {
    const b = bytes[at + i] as number;
    const lower = b >= 0x41 && b <= 0x5a ? b + 0x20 : b;
    if (lower !== word.charCodeAt(i)) return false;
  }
  if (!tag) return true;
  const after = bytes[at + word.length];
  return after === 0x20 || after === 0x3e;
}

// WHATWG MIME Sniffing, "text/html" signatures: these open a document, and make HTML of any name.
const HTML_DOCUMENT = ['<!doctype html', '<html', '<head', '<body', '<script', '<iframe', '<style', '<title'];
// The other signatures open a fragment, as Markdown and plain text may legitimately do.
const HTML_FRAGMENT = ['<h1', '<div', '<font', '<table', '<a', '<b', '<br', '<p', '<!--'];

/** HTML, XML, SVG and scripts in a text's first bytes (the format of text, whatever its name). */
function sniffTextStart(bytes: Uint8Array): Sniffed | null {
  const at = textStart(bytes);
  if (opensWith(bytes, at, '#!', false)) return { format: 'script', label: 'a script (#!)' };
  const head = new TextDecoder('utf-8').decode(bytes.subarray(at, at + 4096)).toLowerCase();
  if (head.startsWith('<svg') || /^<\?xml[^>]*>\s*(<!--[\s\S]*?-->\s*)*<(!doctype\s+)?svg/.test(head))
    return { format: 'svg', label: 'an SVG image' };
  if (opensWith(bytes, at, '<?xml', false)) return { format: 'xml', label: 'an XML document' };
  if (HTML_DOCUMENT.some((word) => opensWith(bytes, at, word, true)))
    return { format: 'html', label: 'an HTML document' };
  return null;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/** UTF-8 without NUL bytes: what the contract's "a .txt must be UTF-8 text" accepts. */
export function isUtf8Text(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The format of a whole file. */
export function sniffFormat(bytes: Uint8Array): Sniffed {
  const binary = sniffBinary(bytes);
  if (binary) return binary;
  const marked = sniffTextStart(bytes);
  if (marked) return marked;
  if (!isUtf8Text(bytes)) return { format: 'binary', label: 'binary data of no allowed type' };
  const at = textStart(bytes);
  const htmlLike = HTML_FRAGMENT.some((word) => opensWith(bytes, at, word, true));
  return { format: 'text', label: 'UTF-8 text', ...(htmlLike ? { htmlLike } : {}) };
}

/**
 * The format of the first bytes of a file (a zip entry's head): the same
 * signatures, without the UTF-8 check a cut could fail.
 */
export function sniffHead(head: Uint8Array): Sniffed {
  return sniffBinary(head) ?? sniffTextStart(head) ?? { format: 'binary', label: 'data' };
}

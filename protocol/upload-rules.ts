// The contract's upload rules, judged by a file's bytes: 25 MB at most (a zip
// unpacking to over ten times that counts as too large); never an executable,
// script, HTML, SVG, XML or macro-enabled Office file, nor a zip holding one;
// a name or declared type the bytes do not match is refused. The service
// answers these refusals; the app judges a file the same way before it queues
// it, with the same words. Plain code over a Uint8Array: it runs anywhere.
import { type Sniffed, type SniffedFormat, sniffFormat, sniffHead } from './file-sniffing';
import type { ProblemTypeName } from './problem';
import {
  type InflateRawHead,
  type ZipEntry,
  readZipDirectory,
  zipEntryData,
  zipEntryHead,
} from './zip-directory';

/** 25 MB (contract, Limits), counted in binary megabytes. */
export const UPLOAD_LIMIT_BYTES = 25 * 1024 * 1024;
/** "A zip whose contents unpack to over 10 times the limit counts as too large." */
export const UNPACKED_LIMIT_BYTES = 10 * UPLOAD_LIMIT_BYTES;
const LIMIT_WORDS = `25 MB (${UPLOAD_LIMIT_BYTES} bytes)`;

/** A type the service accepts: the names it goes by, the bytes it must hold, the types it may be declared as. */
export interface AllowedUploadType {
  label: string;
  extensions: readonly string[];
  formats: readonly SniffedFormat[];
  /** The content type it is stored and served with. */
  contentType: string;
  /** Declared content types that agree with it (what browsers and systems send for it). */
  declared: readonly string[];
}

const OOXML = 'application/vnd.openxmlformats-officedocument';

export const ALLOWED_UPLOAD_TYPES: readonly AllowedUploadType[] = [
  {
    label: 'PNG image',
    extensions: ['png'],
    formats: ['png'],
    contentType: 'image/png',
    declared: ['image/png'],
  },
  {
    label: 'JPEG image',
    extensions: ['jpg', 'jpeg'],
    formats: ['jpeg'],
    contentType: 'image/jpeg',
    declared: ['image/jpeg', 'image/pjpeg'],
  },
  {
    label: 'GIF image',
    extensions: ['gif'],
    formats: ['gif'],
    contentType: 'image/gif',
    declared: ['image/gif'],
  },
  {
    label: 'WebP image',
    extensions: ['webp'],
    formats: ['webp'],
    contentType: 'image/webp',
    declared: ['image/webp'],
  },
  {
    label: 'PDF document',
    extensions: ['pdf'],
    formats: ['pdf'],
    contentType: 'application/pdf',
    declared: ['application/pdf'],
  },
  {
    label: 'plain text (UTF-8)',
    extensions: ['txt', 'text', 'log'],
    formats: ['text'],
    contentType: 'text/plain',
    declared: ['text/plain'],
  },
  {
    label: 'Markdown',
    extensions: ['md', 'markdown'],
    formats: ['text'],
    contentType: 'text/markdown',
    declared: ['text/markdown', 'text/x-markdown', 'text/plain'],
  },
  {
    label: 'CSV',
    extensions: ['csv'],
    formats: ['text'],
    contentType: 'text/csv',
    // Windows declares .csv as an Excel sheet.
    declared: ['text/csv', 'text/x-csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
  },
  {
    label: 'Word document (.docx)',
    extensions: ['docx'],
    formats: ['docx'],
    contentType: `${OOXML}.wordprocessingml.document`,
    declared: [`${OOXML}.wordprocessingml.document`],
  },
  {
    label: 'Excel workbook (.xlsx)',
    extensions: ['xlsx'],
    formats: ['xlsx'],
    contentType: `${OOXML}.spreadsheetml.sheet`,
    declared: [`${OOXML}.spreadsheetml.sheet`],
  },
  {
    label: 'PowerPoint presentation (.pptx)',
    extensions: ['pptx'],
    formats: ['pptx'],
    contentType: `${OOXML}.presentationml.presentation`,
    declared: [`${OOXML}.presentationml.presentation`],
  },
  {
    label: 'ZIP archive',
    extensions: ['zip'],
    formats: ['zip'],
    contentType: 'application/zip',
    declared: ['application/zip', 'application/x-zip-compressed', 'application/x-zip'],
  },
];

/** The allowed types in the words a refusal lists them with. */
export const ALLOWED_UPLOAD_WORDS = ALLOWED_UPLOAD_TYPES.map(
  (type) => `${type.label} (${type.extensions.map((e) => `.${e}`).join(', ')})`,
);

const FORBIDDEN_EXTENSIONS: Record<string, string> = {};
function forbid(what: string, extensions: string): void {
  for (const extension of extensions.split(' ')) FORBIDDEN_EXTENSIONS[extension] = what;
}
forbid(
  'an executable',
  'exe dll com scr msi msix msp pif cpl sys ocx so dylib app apk deb rpm jar class wasm',
);
forbid(
  'a script',
  'sh bash zsh ksh csh fish command bat cmd ps1 psm1 psd1 vbs vbe js mjs cjs jse wsf wsh hta py pyw rb pl php lua applescript scpt reg lnk',
);
forbid('HTML', 'html htm xhtml shtml mht mhtml');
forbid('an SVG image', 'svg svgz');
forbid('XML', 'xml xsl xslt xsd rss atom');
forbid('a macro-enabled Office file', 'docm dotm xlsm xltm xlam pptm potm ppsm ppam sldm');

const FORBIDDEN_TYPES: Record<string, string> = {
  'text/html': 'HTML',
  'application/xhtml+xml': 'HTML',
  'image/svg+xml': 'an SVG image',
  'application/xml': 'XML',
  'text/xml': 'XML',
  'application/javascript': 'a script',
  'text/javascript': 'a script',
  'application/x-javascript': 'a script',
  'application/x-sh': 'a script',
  'application/x-shellscript': 'a script',
  'text/x-shellscript': 'a script',
  'text/x-python': 'a script',
  'application/x-bat': 'a script',
  'application/x-msdownload': 'an executable',
  'application/x-msdos-program': 'an executable',
  'application/vnd.microsoft.portable-executable': 'an executable',
  'application/x-executable': 'an executable',
  'application/x-elf': 'an executable',
  'application/x-mach-binary': 'an executable',
  'application/x-msi': 'an executable',
  'application/java-archive': 'an executable',
};

/** What an Office file may never hold inside it (by name): programs, and files with macros. */
const EMBEDDED_NEVER = new Set(['an executable', 'a script', 'a macro-enabled Office file']);

/** Formats never accepted, whatever they are called. */
const FORBIDDEN_FORMATS: ReadonlySet<SniffedFormat> = new Set(['executable', 'script', 'html', 'svg', 'xml']);

/** Declared types that declare nothing. */
const UNDECLARED = new Set(['', 'application/octet-stream', 'binary/octet-stream']);

export type UploadProblemType = Extract<
  ProblemTypeName,
  'upload-too-large' | 'upload-type-not-allowed' | 'upload-type-mismatch'
>;

/** A refusal in the contract's terms: its status, problem type, title and detail. */
export interface UploadRefusal {
  status: 413 | 415;
  type: UploadProblemType;
  title: string;
  detail: string;
  /** On a 415: the allowed types, in words (the contract: the detail "lists allowed types"). */
  allowed?: readonly string[];
}

export type UploadVerdict = { ok: true; contentType: string } | { ok: false; refusal: UploadRefusal };

export interface UploadCandidate {
  fileName: string;
  /** The content type the file is declared as (its multipart part's), if any. */
  declaredType: string | null;
  bytes: Uint8Array;
}

export interface UploadJudgeOptions {
  /** Reads the start of a deflated zip entry (node:zlib in Node), to see what a zip holds. */
  inflateRawHead: InflateRawHead;
}

/** 413 for a file over the limit: checked on its size alone, before its bytes are read. */
export function uploadSizeRefusal(sizeBytes: number): UploadRefusal | null {
  if (sizeBytes <= UPLOAD_LIMIT_BYTES) return null;
  return {
    status: 413,
    type: 'upload-too-large',
    title: 'File too large',
    detail: `Attachments may be at most ${LIMIT_WORDS}; this one is ${sizeBytes} bytes.`,
  };
}

function notAllowed(why: string): UploadVerdict {
  return {
    ok: false,
    refusal: {
      status: 415,
      type: 'upload-type-not-allowed',
      title: 'File type not allowed',
      detail: `${why}. Allowed types: ${ALLOWED_UPLOAD_WORDS.join('; ')}.`,
      allowed: ALLOWED_UPLOAD_WORDS,
    },
  };
}

function mismatch(why: string): UploadVerdict {
  return {
    ok: false,
    refusal: {
      status: 415,
      type: 'upload-type-mismatch',
      title: 'File contents do not match its type',
      detail: `${why} Allowed types: ${ALLOWED_UPLOAD_WORDS.join('; ')}.`,
      allowed: ALLOWED_UPLOAD_WORDS,
    },
  };
}

/** The lower-case extension of a file name, or null (none, or a dot file such as `.bashrc`). */
export function extensionOf(fileName: string): string | null {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 || dot === base.length - 1 ? null : base.slice(dot + 1).toLowerCase();
}

/** What a file is never accepted as, by its name alone ("an executable"), or undefined. */
function forbiddenByName(fileName: string): string | undefined {
  const extension = extensionOf(fileName);
  return extension === null ? undefined : FORBIDDEN_EXTENSIONS[extension];
}

function declaredTypeOf(declared: string | null): string | null {
  const essence = (declared ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return UNDECLARED.has(essence) ? null : essence;
}

function forbiddenType(essence: string): string | undefined {
  return FORBIDDEN_TYPES[essence] ?? (essence.endsWith('+xml') ? 'XML' : undefined);
}

const ENTRY_HEAD_BYTES = 1024;
const CONTENT_TYPES_MAX_BYTES = 1024 * 1024;

/** What a zip is: an Office document or a plain archive, and whether it holds something never accepted. */
interface ZipVerdict {
  sniffed: Sniffed;
  unpackedBytes: number;
  forbidden: string | null;
}

function judgeZip(
  bytes: Uint8Array,
  entries: readonly ZipEntry[],
  inflateRawHead: InflateRawHead,
): ZipVerdict {
  const unpackedBytes = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  // Too large already: nothing of it is inflated.
  if (unpackedBytes > UNPACKED_LIMIT_BYTES)
    return { sniffed: { format: 'zip', label: 'a ZIP archive' }, unpackedBytes, forbidden: null };
  const names = entries.map((entry) => entry.name);
  const contentTypes = entries.find((entry) => entry.name === '[Content_Types].xml');
  if (contentTypes) {
    const office: SniffedFormat | null = names.some((n) => n.startsWith('word/'))
      ? 'docx'
      : names.some((n) => n.startsWith('xl/'))
        ? 'xlsx'
        : names.some((n) => n.startsWith('ppt/'))
          ? 'pptx'
          : null;
    if (office) {
      const declaredTypes = readEntryText(bytes, contentTypes, inflateRawHead);
      const macros =
        names.some((n) => /(^|\/)vbaproject\.bin$/i.test(n)) ||
        (declaredTypes !== null && /macroenabled|vbaproject/i.test(declaredTypes));
      // Its own XML, SVG images and HTML chunks are what an Office file is made of; a program is not.
      const embedded = entries
        .map((entry) => ({ name: entry.name, what: forbiddenByName(entry.name) }))
        .find(({ what }) => what !== undefined && EMBEDDED_NEVER.has(what));
      return {
        sniffed: { format: office, label: `an Office document (.${office})` },
        unpackedBytes,
        forbidden: macros
          ? 'The file is a macro-enabled Office file'
          : embedded
            ? `The Office file holds ${embedded.name}, ${embedded.what}`
            : null,
      };
    }
  }
  for (const entry of entries) {
    if (entry.name.endsWith('/')) continue;
    const byName = forbiddenByName(entry.name);
    if (byName) return zipHolding(entry, byName, unpackedBytes);
    const head = zipEntryHead(bytes, entry, ENTRY_HEAD_BYTES, inflateRawHead);
    if (head === null) continue;
    const sniffed = sniffHead(head);
    if (FORBIDDEN_FORMATS.has(sniffed.format)) return zipHolding(entry, sniffed.label, unpackedBytes);
  }
  return { sniffed: { format: 'zip', label: 'a ZIP archive' }, unpackedBytes, forbidden: null };
}

function zipHolding(entry: ZipEntry, what: string, unpackedBytes: number): ZipVerdict {
  return {
    sniffed: { format: 'zip', label: 'a ZIP archive' },
    unpackedBytes,
    forbidden: `The zip holds ${entry.name}, ${what}`,
  };
}

function readEntryText(bytes: Uint8Array, entry: ZipEntry, inflateRawHead: InflateRawHead): string | null {
  if (entry.uncompressedSize > CONTENT_TYPES_MAX_BYTES) return null;
  const data = zipEntryData(bytes, entry);
  if (data === null || entry.encrypted) return null;
  const content =
    entry.method === 0 ? data : entry.method === 8 ? inflateRawHead(data, CONTENT_TYPES_MAX_BYTES) : null;
  return content === null ? null : new TextDecoder('utf-8').decode(content);
}

/**
 * Judges a file as the service does, in the contract's order: its size, its
 * name and declared type, then its bytes. A file refused on its name alone
 * (`.exe`, `text/html`) is not read further.
 */
export function judgeUpload(candidate: UploadCandidate, options: UploadJudgeOptions): UploadVerdict {
  const { fileName, bytes } = candidate;
  const tooLarge = uploadSizeRefusal(bytes.length);
  if (tooLarge) return { ok: false, refusal: tooLarge };
  const extension = extensionOf(fileName);
  const declared = declaredTypeOf(candidate.declaredType);
  const byName = forbiddenByName(fileName);
  if (byName) return notAllowed(`${fileName} is ${byName} by its name`);
  const byDeclared = declared === null ? undefined : forbiddenType(declared);
  if (byDeclared) return notAllowed(`${declared} is ${byDeclared}`);

  let expected: AllowedUploadType | undefined;
  if (extension !== null) {
    expected = ALLOWED_UPLOAD_TYPES.find((type) => type.extensions.includes(extension));
    if (!expected) return notAllowed(`.${extension} files are not accepted`);
  } else if (declared !== null) {
    expected = ALLOWED_UPLOAD_TYPES.find((type) => type.declared.includes(declared));
    if (!expected) return notAllowed(`${declared} files are not accepted`);
  }

  let sniffed = sniffFormat(bytes);
  let forbidden: string | null = FORBIDDEN_FORMATS.has(sniffed.format)
    ? `The file is ${sniffed.label}`
    : null;
  if (sniffed.format === 'zip') {
    const entries = readZipDirectory(bytes);
    if (entries === null) {
      sniffed = { format: 'binary', label: 'a damaged ZIP archive' };
    } else {
      const zip = judgeZip(bytes, entries, options.inflateRawHead);
      if (zip.unpackedBytes > UNPACKED_LIMIT_BYTES) {
        return {
          ok: false,
          refusal: {
            status: 413,
            type: 'upload-too-large',
            title: 'File too large',
            detail:
              `The zip unpacks to ${zip.unpackedBytes} bytes, over ten times the ${LIMIT_WORDS} limit ` +
              `(${UNPACKED_LIMIT_BYTES} bytes).`,
          },
        };
      }
      sniffed = zip.sniffed;
      forbidden = zip.forbidden;
    }
  }

  if (!expected) {
    // No name or declared type to hold the bytes to: the bytes alone decide.
    if (forbidden) return notAllowed(forbidden);
    if (sniffed.htmlLike) return notAllowed('The file is an HTML fragment');
    const found = ALLOWED_UPLOAD_TYPES.find((type) => type.formats.includes(sniffed.format));
    return found ? { ok: true, contentType: found.contentType } : notAllowed(`The file is ${sniffed.label}`);
  }
  // "An executable named .png is a mismatch" (contract): bytes of another kind than the name says.
  if (!expected.formats.includes(sniffed.format)) {
    const claim = extension !== null ? `named .${extension}` : `declared as ${declared}`;
    return mismatch(`${fileName} is ${claim} (${expected.label}), but its contents are ${sniffed.label}.`);
  }
  if (forbidden) return notAllowed(forbidden);
  if (declared !== null && !expected.declared.includes(declared)) {
    return mismatch(`${fileName} is declared as ${declared}, but its contents are ${sniffed.label}.`);
  }
  return { ok: true, contentType: expected.contentType };
}

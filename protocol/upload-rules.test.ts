// The upload judge on its own, for what the emulator's HTTP tests do not walk
// through: names without extensions, declared types alone, Markdown that opens
// with HTML, Office documents without macros, and the size limit's edge.
import { constants, inflateRawSync } from 'node:zlib';
import { expect, test } from 'vitest';
import { zipOf } from './testing/zip-fixture';
import {
  extensionOf,
  judgeUpload,
  UPLOAD_LIMIT_BYTES,
  type UploadCandidate,
  uploadSizeRefusal,
} from './upload-rules';

const options = {
  inflateRawHead: (compressed: Uint8Array, maxBytes: number) =>
    inflateRawSync(compressed, { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, maxBytes),
};
const text = (s: string) => new TextEncoder().encode(s);
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
const DOCX = zipOf([
  { name: '[Content_Types].xml', content: '<Types/>' },
  { name: 'word/document.xml', content: '<w:document/>' },
]);

const judge = (candidate: Partial<UploadCandidate> & { bytes: Uint8Array }) =>
  judgeUpload({ fileName: 'file', declaredType: null, ...candidate }, options);

test.each([
  ['photo.PNG', 'png'],
  ['dir/notes.tar.gz', 'gz'],
  ['C:\\docs\\report.pdf', 'pdf'],
  ['.bashrc', null],
  ['README', null],
  ['trailing.', null],
])('the extension of %s is %s', (name, extension) => {
  expect(extensionOf(name)).toBe(extension);
});

test.each([
  [
    'UTF-8 text without a name that says what it is',
    { fileName: 'README', bytes: text('hello\n') },
    'text/plain',
  ],
  [
    'a PNG known by its declared type alone',
    { fileName: 'image', declaredType: 'image/png', bytes: PNG },
    'image/png',
  ],
  [
    'a PNG declared as octet-stream (declaring nothing)',
    { fileName: 'a.png', declaredType: 'application/octet-stream', bytes: PNG },
    'image/png',
  ],
  [
    'Markdown that opens with an HTML fragment',
    { fileName: 'README.md', bytes: text('<p align="center">logo</p>\n# Title') },
    'text/markdown',
  ],
  [
    'a CSV declared as Windows declares it',
    { fileName: 'a.csv', declaredType: 'application/vnd.ms-excel', bytes: text('a,b\n1,2\n') },
    'text/csv',
  ],
  [
    'a .txt with a byte order mark',
    { fileName: 'a.txt', bytes: Uint8Array.from([0xef, 0xbb, 0xbf, 0x68, 0x69]) },
    'text/plain',
  ],
  [
    'a Word document without macros',
    { fileName: 'letter.docx', bytes: DOCX },
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  [
    'a Word document made of XML, an SVG image and an HTML chunk, as Word writes them',
    {
      fileName: 'letter.docx',
      bytes: zipOf([
        { name: '[Content_Types].xml', content: '<?xml version="1.0"?><Types/>' },
        { name: 'word/document.xml', content: '<?xml version="1.0"?><w:document/>' },
        { name: 'word/media/image1.svg', content: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
        { name: 'word/afchunk.htm', content: '<html><body>hi</body></html>' },
      ]),
    },
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ],
  ['an empty zip', { fileName: 'empty.zip', bytes: zipOf([]) }, 'application/zip'],
])('accepted: %s', (_what, candidate, contentType) => {
  expect(judge(candidate)).toEqual({ ok: true, contentType });
});

test.each([
  [
    'an HTML fragment with no name to hold it to',
    { fileName: 'page', bytes: text('<div>hi</div>') },
    'upload-type-not-allowed',
  ],
  ['a Word document named .zip', { fileName: 'letter.zip', bytes: DOCX }, 'upload-type-mismatch'],
  [
    'a declared type not on the list',
    { fileName: 'clip', declaredType: 'video/mp4', bytes: text('x') },
    'upload-type-not-allowed',
  ],
  [
    'any +xml type',
    { fileName: 'feed.txt', declaredType: 'application/atom+xml', bytes: text('x') },
    'upload-type-not-allowed',
  ],
  [
    'a Word document holding an executable',
    {
      fileName: 'letter.docx',
      bytes: zipOf([
        { name: '[Content_Types].xml', content: '<Types/>' },
        { name: 'word/document.xml', content: '<w:document/>' },
        { name: 'word/embeddings/setup.exe', content: 'MZ' },
      ]),
    },
    'upload-type-not-allowed',
  ],
  [
    'a zip64 bomb claiming 8 GiB in one entry',
    {
      fileName: 'bomb.zip',
      bytes: zipOf([{ name: 'a.txt', content: 'x', claimedSize: 2 ** 33 }], { zip64: true }),
    },
    'upload-too-large',
  ],
  [
    'binary bytes named .txt',
    { fileName: 'a.txt', bytes: Uint8Array.from([0x68, 0x00, 0x69]) },
    'upload-type-mismatch',
  ],
])('refused: %s', (_what, candidate, type) => {
  const verdict = judge(candidate);
  expect(verdict.ok ? null : verdict.refusal.type).toBe(type);
});

test('the limit is 25 MB: at it nothing is said, one byte over is 413 naming it', () => {
  expect(uploadSizeRefusal(UPLOAD_LIMIT_BYTES)).toBeNull();
  const refusal = uploadSizeRefusal(UPLOAD_LIMIT_BYTES + 1);
  expect([refusal?.status, refusal?.type]).toEqual([413, 'upload-too-large']);
  expect(refusal?.detail).toContain(`25 MB (${UPLOAD_LIMIT_BYTES} bytes)`);
});

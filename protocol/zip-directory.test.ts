// The central directory as written: plain and zip64 (the form a zip bomb
// claiming over 4 GiB must take), and bytes that hold none.
import { expect, test } from 'vitest';
import { zipOf } from './testing/zip-fixture';
import { readZipDirectory, zipEntryData } from './zip-directory';

const entries = [
  { name: 'a.txt', content: 'alpha', deflate: false },
  { name: 'dir/b.bin', content: 'bravo bravo bravo', claimedSize: 2 ** 33 },
];

test.each([false, true])('zip64 %s: names, methods, sizes and each entry’s data', (zip64) => {
  const bytes = zipOf(zip64 ? entries : entries.map((e) => (e.claimedSize ? { ...e, claimedSize: 17 } : e)), {
    zip64,
  });
  const read = readZipDirectory(bytes);
  expect(read?.map((e) => [e.name, e.method, e.uncompressedSize])).toEqual([
    ['a.txt', 0, 5],
    ['dir/b.bin', 8, zip64 ? 2 ** 33 : 17],
  ]);
  expect(Buffer.from(zipEntryData(bytes, read![0]!)!).toString()).toBe('alpha');
});

test.each([
  ['not a zip', Buffer.from('hello')],
  ['a zip cut short', zipOf(entries.slice(0, 1)).subarray(0, 40)],
  ['an empty buffer', Buffer.alloc(0)],
])('%s has no directory', (_what, bytes) => {
  expect(readZipDirectory(bytes)).toBeNull();
});

// What may be opened with the system's default app: content the app holds,
// whose bytes and name pass the upload rules, copied under its own name into
// the private folder; an executable or a script is never opened, whatever its
// name says, and says why.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import { openableAttachment } from './attachment-open';

let dir: string;
let files: AttachmentFiles;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'svc-attachment-open-'));
  files = new AttachmentFiles(join(dir, 'files'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const ELF = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const text = (s: string) => new TextEncoder().encode(s);

test('kept text named .txt opens from a copy under its name inside the private folder', () => {
  const { sha256 } = files.keep(text('meeting notes'));
  const verdict = openableAttachment(files, { sha256, fileName: '../notes.txt' });
  expect(verdict.ok).toBe(true);
  if (!verdict.ok) return;
  expect(verdict.path.startsWith(files.dir)).toBe(true);
  expect(verdict.path.endsWith('.._notes.txt')).toBe(true);
  expect(readFileSync(verdict.path, 'utf8')).toBe('meeting notes');
});

test.each([
  ['an executable named .txt', ELF, 'readme.txt', 'ELF executable'],
  ['a shell script named .txt', text('#!/bin/sh\nrm -rf ~\n'), 'tidy.txt', 'script'],
  ['HTML named .txt', text('<!DOCTYPE html><html><script>x()</script></html>'), 'page.txt', 'HTML'],
  ['text under an executable name', text('hello'), 'hello.exe', 'executable'],
])('%s is never opened and says why', (_case, bytes, fileName, why) => {
  const { sha256 } = files.keep(bytes);
  const verdict = openableAttachment(files, { sha256, fileName });
  expect(verdict).toMatchObject({ ok: false, reason: 'not-safe' });
  if (verdict.ok) return;
  expect(verdict.message).toContain(fileName);
  expect(verdict.message).toContain(why);
});

test('content not kept on this computer is not opened', () => {
  expect(openableAttachment(files, { sha256: 'a'.repeat(64), fileName: 'x.txt' })).toMatchObject({
    ok: false,
    reason: 'not-kept',
  });
});

// The attachment calls through the real gate over a mirror pushed by the real
// pusher to the emulator: files picked in main's dialog are checked (a refused
// one said in the contract's words, nothing queued for it), the others queued
// and listed at once, uploaded by the next push; one opened only from the
// private folder, and one not on this computer while offline said so.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { AttachmentFiles, sha256Hex } from '../../db/attachments/attachment-files';
import { UPLOAD_LIMIT_BYTES } from '../../protocol/upload-rules';
import { attachmentHandlers } from './attachment-handlers';
import { collectionHandlers } from './collection-handlers';
import { wiredHandlersPerTest } from './testing/wired-handlers';

const wireCollections = wiredHandlersPerTest(collectionHandlers);
let picked: string[] = [];
const opened: string[] = [];
const wire = wiredHandlersPerTest((dependencies) =>
  attachmentHandlers({
    ...dependencies,
    pickFiles: () => Promise.resolve(picked),
    openPath: (path) => {
      opened.push(path);
      return Promise.resolve('');
    },
  }),
);

test('picked files are checked and queued (or refused in the contract words), uploaded by the next push, and opened from the private folder', async () => {
  const w = await wire();
  const [taskId] = w.f.taskIds(1) as [string];
  await w.f.loadTasks([taskId]);
  const notes = join(w.f.dir, 'notes.txt');
  const program = join(w.f.dir, 'setup.exe');
  writeFileSync(notes, 'notes for the task');
  writeFileSync(program, Buffer.from([0x4d, 0x5a, 0x90, 0]));
  picked = [notes, program];

  const added = await w.value('attachment:add', { task_id: taskId });
  expect(added.queued).toMatchObject([{ file_name: 'notes.txt' }]);
  expect(added.refused).toMatchObject([
    { file_name: 'setup.exe', status: 415, type: 'upload-type-not-allowed' },
  ]);
  expect(added.refused[0]!.detail).toContain('Allowed types');
  expect(await w.value('attachments:list', { task_id: taskId })).toMatchObject([
    { file_name: 'notes.txt', content_type: 'text/plain', size_bytes: 18, pending: 'queued' },
  ]);
  expect(w.events.map((e) => e.name)).toEqual(['mirror:changed']);
  expect(w.edits).toBe(1);

  await w.f.pusher.pushAll();
  const [served] = w.f.emulator.control.attachments();
  expect(served).toMatchObject({ task_id: taskId, file_name: 'notes.txt' });
  const listed = await w.value('attachments:list', { task_id: taskId });
  expect(listed).toEqual([expect.objectContaining({ attachment_id: served!.attachment_id })]);

  // The kept copy is the content: opened from the private folder under its own name.
  await w.value('attachment:open', { attachment_id: served!.attachment_id });
  const files = AttachmentFiles.beside(w.f.mirror.file);
  expect(opened).toHaveLength(1);
  expect(opened[0]!.startsWith(files.dir)).toBe(true);
  expect(opened[0]!.endsWith('notes.txt')).toBe(true);
  expect(readFileSync(opened[0]!, 'utf8')).toBe('notes for the task');

  // Not on this computer and no way to download it now: said, nothing opened.
  files.evict(0, new Set());
  expect(await w.call('attachment:open', { attachment_id: served!.attachment_id })).toMatchObject({
    ok: false,
    error: { type: 'offline' },
  });
  expect(opened).toHaveLength(1);
});

test('the page cannot queue an upload through collection:create, naming a kept file itself', async () => {
  const w = await wireCollections();
  const [taskId] = w.f.taskIds(1) as [string];
  const kept = AttachmentFiles.beside(w.f.mirror.file).keep(new TextEncoder().encode('kept elsewhere'));
  const answer = await w.call('collection:create', {
    kind: 'attachment',
    fields: {
      task_id: taskId,
      file_name: 'copy.txt',
      content_type: 'text/plain',
      size_bytes: kept.size,
      sha256: kept.sha256,
    },
  });
  expect(answer).toMatchObject({ ok: false, error: { type: 'validation' } });
  expect(w.f.mirror.outbox.list()).toEqual([]);
});

test('a dropped file is the bytes the page read, never a path: checked, kept and queued as a picked one, or refused in the contract words', async () => {
  const w = await wire();
  const [taskId] = w.f.taskIds(1) as [string];
  await w.f.loadTasks([taskId]);
  const bytes = new TextEncoder().encode('dropped notes');

  const added = await w.value('attachment:drop', {
    task_id: taskId,
    file_name: 'dropped.txt',
    declared_type: 'text/plain',
    bytes,
  });
  expect(added).toMatchObject({ queued: [{ file_name: 'dropped.txt' }], refused: [] });
  expect(await w.value('attachments:list', { task_id: taskId })).toMatchObject([
    { file_name: 'dropped.txt', content_type: 'text/plain', size_bytes: bytes.length, pending: 'queued' },
  ]);
  expect(AttachmentFiles.beside(w.f.mirror.file).has(sha256Hex(bytes))).toBe(true);

  // A PNG's bytes declared as text: the same mismatch the service answers, nothing queued.
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]);
  const mismatch = await w.value('attachment:drop', {
    task_id: taskId,
    file_name: 'photo.txt',
    declared_type: 'text/plain',
    bytes: png,
  });
  expect(mismatch).toMatchObject({ queued: [], refused: [{ status: 415, type: 'upload-type-mismatch' }] });

  // Just over the limit is refused in the contract's words (413 naming it); far over is not a file the page read.
  const over = await w.value('attachment:drop', {
    task_id: taskId,
    file_name: 'big.txt',
    declared_type: 'text/plain',
    bytes: new Uint8Array(UPLOAD_LIMIT_BYTES + 1),
  });
  expect(over.refused).toMatchObject([{ status: 413, type: 'upload-too-large' }]);
  expect(over.refused[0]!.detail).toContain('25 MB');
  const farOver = await w.call('attachment:drop', {
    task_id: taskId,
    file_name: 'huge.txt',
    declared_type: 'text/plain',
    bytes: new Uint8Array(UPLOAD_LIMIT_BYTES + 2 * 1024 * 1024),
  });
  expect(farOver).toMatchObject({ ok: false, error: { type: 'invalid-input' } });
  // A path is not an input the call takes.
  const path = await w.call('attachment:drop', {
    task_id: taskId,
    file_name: 'passwd',
    declared_type: '',
    bytes,
    path: '/etc/passwd',
  });
  expect(path).toMatchObject({ ok: false, error: { type: 'invalid-input' } });
  expect(w.f.mirror.outbox.list()).toHaveLength(1);

  await w.f.pusher.pushAll();
  expect(w.f.emulator.control.attachments()).toMatchObject([{ task_id: taskId, file_name: 'dropped.txt' }]);
});

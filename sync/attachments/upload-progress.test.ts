// An upload at the contract's 25 MB limit pushed to the emulator over HTTP
// from a real mirror: the body goes in chunks, the service keeps exactly the
// file's bytes, and the pusher tells the bytes sent as they go (one caught
// part-way while the service reads no further), rising to the whole body, for
// the row in the editor to show.
import { createHash } from 'node:crypto';
import { expect, test, vi } from 'vitest';
import { AttachmentFiles } from '../../db/attachments/attachment-files';
import { UPLOAD_LIMIT_BYTES } from '../../protocol/upload-rules';
import type { SyncEvent } from '../events/sync-events';
import { pushFixturePerTest } from '../push/testing/push-fixture';
import { prepareUploadBytes, queueUpload } from './attachment-upload';

const start = pushFixturePerTest();
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** 25 MB of text that differs along its length, so a chunk sent twice or out of place changes its hash. */
function numberedLines(size: number): Buffer {
  const bytes = Buffer.alloc(size, ' ');
  let at = 0;
  for (let line = 0; at < size; line += 1) at += bytes.write(`line ${line}\n`, at);
  return bytes;
}

test('a 25 MB upload reaches the service byte for byte, its progress told as it goes, rising to the whole body', async () => {
  const fixture = await start();
  const [taskId] = fixture.taskIds(1);
  await fixture.loadTasks([taskId!]);
  const bytes = numberedLines(UPLOAD_LIMIT_BYTES);
  const prepared = prepareUploadBytes(AttachmentFiles.beside(fixture.file), taskId!, {
    fileName: 'large.txt',
    declaredType: null,
    bytes,
  });
  if (!prepared.ok) throw new Error(`refused: ${prepared.refusal.detail}`);
  const queued = queueUpload(fixture.mirror, prepared.body);

  const progressOf = () =>
    fixture.events.filter(
      (event): event is Extract<SyncEvent, { type: 'upload-progress' }> => event.type === 'upload-progress',
    );
  // The service stops reading after the body's first bytes: the upload is caught part-way, told so.
  fixture.emulator.control.holdUploadReading(1);
  const pushed = fixture.pusher.pushAll();
  await vi.waitFor(() => expect(progressOf().some((p) => p.sentBytes > 0)).toBe(true), {
    timeout: 20_000,
    interval: 20,
  });
  const partWay = progressOf().at(-1)!;
  expect(partWay.sentBytes).toBeLessThan(partWay.totalBytes);
  expect(fixture.emulator.control.attachments()).toEqual([]);
  fixture.emulator.control.holdUploadReading(null);

  expect(await pushed).toMatchObject({ pushed: 1, failed: 0 });
  expect(fixture.emulator.control.attachments()).toMatchObject([
    { task_id: taskId, size_bytes: UPLOAD_LIMIT_BYTES, sha256: sha256(bytes) },
  ]);

  const progress = progressOf();
  expect(new Set(progress.map((p) => [p.opId, p.entityType, p.entityId].join(' ')))).toEqual(
    new Set([`${queued.opId} attachment ${queued.id}`]),
  );
  const total = progress[0]!.totalBytes;
  // The whole form: the file and its part's headers and boundaries.
  expect(total).toBeGreaterThan(UPLOAD_LIMIT_BYTES);
  expect(total).toBeLessThan(UPLOAD_LIMIT_BYTES + 1024);
  expect(progress.every((p) => p.totalBytes === total)).toBe(true);
  const sent = progress.map((p) => p.sentBytes);
  expect(sent[0]).toBe(0);
  expect(sent.at(-1)).toBe(total);
  for (let i = 1; i < sent.length; i += 1) expect(sent[i]).toBeGreaterThan(sent[i - 1]!);
});

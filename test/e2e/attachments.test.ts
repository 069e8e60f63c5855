// Attachments in the task editor against the emulator, in Chromium: files
// picked offline are checked at once (a refused one said in the service's
// words, nothing queued for it), the other listed at once as not sent yet and
// uploaded once when the network returns; a click opens it from the app's
// private folder; renamed and deleted in place; a file the service's malware
// scan refuses is a failed change; a 25 MB upload says how much of it has
// gone while it is sent.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EICAR_SIGNATURE } from '../../emulator/uploads/malware-scan';
import { UPLOAD_LIMIT_BYTES } from '../../protocol/upload-rules';
import { sessionPerFile } from './support/app-session';
import { type DroppedFile, filesDropped } from './support/file-drop';
import { startSignedInSession } from './support/signed-in-session';
import { syncAndSettle, until } from './support/waits';

const session = sessionPerFile(() => startSignedInSession({ emulator: { seedTasks: 60 } }));

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-e2e-attachments-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function fileOf(name: string, bytes: string | Buffer): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe('attachments', () => {
  test('added offline: a refused file is said at once, the other uploads once when online and opens from the private folder', async () => {
    const { page } = session.app;
    const task = session.emulator.control.tasks().find((t) => t.title.length < 60);
    if (!task) throw new Error('the seed has no task');
    await page.getByLabel('Search tasks').fill(task.task_id);
    await page.locator(`[role="row"][data-task-id="${task.task_id}"]`).click();
    const editor = page.getByTestId('task-editor');
    await editor.getByRole('heading', { name: 'Attachments (0)' }).waitFor();

    session.proxy.goOffline();
    session.host.pickFilesNext([
      await fileOf('notes.txt', 'notes written offline'),
      await fileOf('setup.exe', Buffer.from([0x4d, 0x5a, 0x90, 0])),
    ]);
    await editor.getByRole('button', { name: 'Attach files…' }).click();
    const row = editor.locator('.attachment-list > li').filter({ hasText: 'notes.txt' });
    await row.locator('[data-attachment-state="queued"]').waitFor();
    await expect(row.textContent()).resolves.toContain('text/plain · 21 B');
    await expect(editor.getByRole('alert').textContent()).resolves.toContain(
      'setup.exe was not attached. File type not allowed',
    );
    await editor.getByRole('heading', { name: 'Attachments (1)' }).waitFor();

    session.proxy.goOnline();
    await syncAndSettle(page);
    await until(() => session.emulator.control.attachments().length === 1, 'the upload on the service');
    expect(session.emulator.control.attachments()).toMatchObject([
      { task_id: task.task_id, file_name: 'notes.txt' },
    ]);
    expect(session.emulator.control.attachmentUploads()).toBe(1);
    await row.locator('[data-attachment-state]').waitFor({ state: 'detached' });

    await row.getByRole('button', { name: 'notes.txt', exact: true }).click();
    await until(() => session.host.openedFiles.length === 1, 'the file handed to the default app');
    const opened = session.host.openedFiles[0]!;
    expect(opened.endsWith('notes.txt')).toBe(true);
    expect(opened.includes('.attachments')).toBe(true);
    await expect(readFile(opened, 'utf8')).resolves.toBe('notes written offline');
  });

  test('renamed and deleted in the editor, each sent with If-Match', async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const [served] = session.emulator.control.attachments();
    if (!served) throw new Error('the first test uploaded nothing');
    await editor.getByRole('button', { name: 'Rename notes.txt' }).click();
    const box = editor.getByRole('textbox', { name: 'New name for notes.txt' });
    await box.fill('meeting notes.txt');
    await box.press('Enter');
    await syncAndSettle(page);
    await until(
      () => session.emulator.control.attachments()[0]?.file_name === 'meeting notes.txt',
      'the rename on the service',
    );
    await editor.getByRole('button', { name: 'Delete meeting notes.txt' }).click();
    await syncAndSettle(page);
    await until(() => session.emulator.control.attachments().length === 0, 'the delete on the service');
    const writes = session.emulator.control
      .requests()
      .filter((r) => r.path === `/v1/task-attachments/${served.attachment_id}` && r.method !== 'GET');
    expect(writes.map((r) => [r.method, r.status, typeof r.ifMatch])).toEqual([
      ['PATCH', 200, 'string'],
      ['DELETE', 204, 'string'],
    ]);
    await editor.getByRole('heading', { name: 'Attachments (0)' }).waitFor();
  });

  test("a file the service's malware scan refuses is a failed change on the list, nothing on the service", async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const before = session.emulator.control.attachments().length;
    session.host.pickFilesNext([await fileOf('eicar.txt', Buffer.from(EICAR_SIGNATURE, 'latin1'))]);
    await editor.getByRole('button', { name: 'Attach files…' }).click();
    const row = editor.locator('.attachment-list > li').filter({ hasText: 'eicar.txt' });
    await row.waitFor();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await row.locator('[data-attachment-state="failed"]').waitFor({ timeout: 20_000 });
    expect(session.emulator.control.attachments()).toHaveLength(before);
  });

  test('files dropped on a list row and on the editor are attached as their bytes, a refused one said; nothing names a path', async () => {
    const { page } = session.app;
    const tasks = session.emulator.control.tasks().filter((t) => t.title.length < 60);
    const other = tasks[1];
    if (!other) throw new Error('the seed has too few tasks');
    const dropOf = (files: DroppedFile[]) => filesDropped(page, files);

    // Offline until both drops are listed: online, an upload goes at once and may be on the
    // service before the editor shows it waiting.
    session.proxy.goOffline();
    await page.getByLabel('Search tasks').fill(other.task_id);
    const row = page.locator(`[role="row"][data-task-id="${other.task_id}"]`);
    const onRow = await dropOf([{ name: 'from the list.txt', type: 'text/plain', text: 'dropped on a row' }]);
    await row.dispatchEvent('dragenter', { dataTransfer: onRow });
    await expect(row.getAttribute('class')).resolves.toContain('is-file-target');
    await row.dispatchEvent('drop', { dataTransfer: onRow });
    await expect(row.getAttribute('class')).resolves.not.toContain('is-file-target');

    await row.click();
    const editor = page.getByTestId('task-editor');
    const listed = editor.locator('.attachment-list > li').filter({ hasText: 'from the list.txt' });
    await listed.locator('[data-attachment-state="queued"]').waitFor();

    const onEditor = await dropOf([
      { name: 'from the editor.txt', type: 'text/plain', text: 'dropped on the editor' },
      { name: 'page.html', type: 'text/html', text: '<!doctype html><script>alert(1)</script>' },
    ]);
    await editor.dispatchEvent('drop', { dataTransfer: onEditor });
    await editor.locator('.attachment-list > li').filter({ hasText: 'from the editor.txt' }).waitFor();
    const notice = page.locator('.notice[data-problem-type="upload-type-not-allowed"]');
    await expect(notice.textContent()).resolves.toContain(
      'page.html was not attached: File type not allowed',
    );

    // The malware-refused change of the test before stays failed, so 'all synced' never shows: wait on the service.
    session.proxy.goOnline();
    await page.getByRole('button', { name: 'Sync now' }).click();
    await until(
      () => session.emulator.control.attachments().filter((a) => a.task_id === other.task_id).length === 2,
      'both dropped files on the service',
    );
    expect(
      session.emulator.control
        .attachments()
        .filter((a) => a.task_id === other.task_id)
        .map((a) => [a.file_name, a.size_bytes])
        .sort(),
    ).toEqual([
      ['from the editor.txt', 21],
      ['from the list.txt', 16],
    ]);
  });

  test("offline: a kept attachment opens from the private folder, and files the service would refuse as too large, of a type never allowed or contradicted by their bytes are refused before anything is queued, in the service's words", async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    await editor.getByRole('heading', { name: 'Attachments (2)' }).waitFor();
    session.proxy.goOffline();
    const openedBefore = session.host.openedFiles.length;

    // Uploaded from this computer, so its bytes are kept: it opens with no network.
    await editor.getByRole('button', { name: 'from the list.txt', exact: true }).click();
    await until(() => session.host.openedFiles.length === openedBefore + 1, 'the file opened offline');
    const opened = session.host.openedFiles.at(-1)!;
    expect(opened.includes('.attachments')).toBe(true);
    await expect(readFile(opened, 'utf8')).resolves.toBe('dropped on a row');

    // 413, 415 not allowed and 415 mismatch are judged by the app with the contract's rules before
    // queuing (nothing reaches the service); only the malware scan's 422 needs the service (the test above).
    const uploadsBefore = session.emulator.control
      .requests()
      .filter((r) => r.path === '/v1/task-attachments');
    session.host.pickFilesNext([
      await fileOf('big.txt', Buffer.alloc(UPLOAD_LIMIT_BYTES + 1, 'a')),
      await fileOf('tool.sh', '#!/bin/sh\necho hi\n'),
      await fileOf('photo.png', Buffer.from([0x4d, 0x5a, 0x90, 0])),
    ]);
    await editor.getByRole('button', { name: 'Attach files…' }).click();
    const refusals = editor.locator('.attachment-refusals');
    await refusals.locator('p').nth(2).waitFor();
    const said = await refusals.locator('p').allTextContents();
    expect(said[0]).toContain(
      `big.txt was not attached. File too large: Attachments may be at most 25 MB (${UPLOAD_LIMIT_BYTES} bytes)`,
    );
    expect(said[1]).toContain('tool.sh was not attached. File type not allowed:');
    expect(said[1]).toContain('Allowed types');
    expect(said[2]).toContain('photo.png was not attached. File contents do not match its type:');
    await editor.getByRole('heading', { name: 'Attachments (2)' }).waitFor();

    expect(await editor.locator('.attachment-list [data-attachment-state]').count()).toBe(0);
    expect(session.emulator.control.requests().filter((r) => r.path === '/v1/task-attachments')).toHaveLength(
      uploadsBefore.length,
    );
    session.proxy.goOnline();
  });

  test('a 25 MB upload says on its row how much of it has gone while it is sent, then is on the service byte for byte', async () => {
    const { page } = session.app;
    const editor = page.getByTestId('task-editor');
    const bytes = Buffer.alloc(UPLOAD_LIMIT_BYTES, 'progress ');
    // Online again since the test before: a sync asked now ends with the app knowing it (else it
    // finds out on its own, maybe later, and the upload, held below, would keep that sync going).
    const syncNow = page.getByRole('button', { name: 'Sync now' });
    await syncNow.click();
    await until(() => syncNow.isEnabled(), 'the sync asked ending');
    // The service reads the body's first bytes and then no more until let go: the upload is seen part-way.
    session.emulator.control.holdUploadReading(1);
    session.host.pickFilesNext([await fileOf('large.txt', bytes)]);
    await editor.getByRole('button', { name: 'Attach files…' }).click();
    const row = editor.locator('.attachment-list > li').filter({ hasText: 'large.txt' });
    await row.waitFor();
    // Online, it goes on its own a moment after it is added, as every change does.

    // The row's mark says it is being sent, its status how much has gone: "Sending 42% · 10.5 of 25 MB".
    await row.filter({ hasText: /Sending \d+% · [\d.]+ of 25 MB/ }).waitFor({ timeout: 20_000 });
    const words = (await row.textContent()) ?? '';
    const percent = Number(/Sending (\d+)% · [\d.]+ of 25 MB/.exec(words)?.[1]);
    expect(percent).toBeLessThan(100);
    await row.locator('[data-attachment-state="in_flight"]').waitFor();
    expect(session.emulator.control.attachments().some((a) => a.file_name === 'large.txt')).toBe(false);

    session.emulator.control.holdUploadReading(null);
    await until(
      () => session.emulator.control.attachments().some((a) => a.file_name === 'large.txt'),
      'the upload on the service',
    );
    expect(session.emulator.control.attachments().find((a) => a.file_name === 'large.txt')).toMatchObject({
      size_bytes: UPLOAD_LIMIT_BYTES,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    await row.getByRole('status').waitFor({ state: 'detached' });
    await row.locator('[data-attachment-state]').waitFor({ state: 'detached' });
  });
});

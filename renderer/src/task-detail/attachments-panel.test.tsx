// @vitest-environment happy-dom
// A task's attachments in the editor: name, type, size, who and when from the
// mirror, an upload still waiting marked; files refused before queuing said in
// the service's words; a file main will not open says why, in place.
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { AttachmentSummary } from '../../../ipc/attachment-schemas';
import { useSession } from '../store/session-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, syncStatus } from '../testing/screen-fixtures';
import { sizeWords } from '../vocabulary/size-words';
import { AttachmentsPanel, uploadWords } from './attachments-panel';

const bridge = fakeBridgeEachTest();

const served: AttachmentSummary = {
  attachment_id: 'att-1',
  task_id: 't-1',
  file_name: 'plan.pdf',
  content_type: 'application/pdf',
  size_bytes: 2_621_440,
  sha256: 'a'.repeat(64),
  created_by: 'grace',
  created_at: '2026-03-01T10:00:00Z',
};
const waiting: AttachmentSummary = {
  ...served,
  attachment_id: 'local-2',
  file_name: 'notes.txt',
  content_type: 'text/plain',
  size_bytes: 512,
  created_by: null,
  created_at: null,
  pending: 'queued',
};

/** A 25 MB file's upload body: the file and its form's few hundred bytes. */
const LARGE_BODY = 26_214_400 + 300;

/** Main tells that `share` of an attachment's upload body (LARGE_BODY) has gone. */
function toldSent(attachmentId: string, share: number): void {
  act(() =>
    bridge.emit('attachment:upload-progress', {
      account_id: 'acc-1',
      attachment_id: attachmentId,
      op_id: `op-${attachmentId}`,
      sent_bytes: Math.round(LARGE_BODY * share),
      total_bytes: LARGE_BODY,
    }),
  );
}

test('each attachment shows its name, type, size, who and when; one still waiting is marked', async () => {
  bridge.answer('attachments:list', () => [served, waiting]);
  render(<AttachmentsPanel taskId="t-1" />);
  const items = await screen.findAllByRole('listitem');
  expect(items[0]!.textContent).toContain('plan.pdf');
  expect(items[0]!.textContent).toContain('application/pdf · 2.5 MB · grace');
  expect(within(items[0]!).getByRole('button', { name: 'plan.pdf' })).toBeTruthy();
  expect(items[1]!.textContent).toContain('text/plain · 512 B');
  expect(items[1]!.querySelector('[data-attachment-state="queued"]')).not.toBeNull();
  expect(items[0]!.querySelector('[data-attachment-state]')).toBeNull();
});

test('an upload not yet on the service says whether it waits or is being sent, and its size', async () => {
  const sending: AttachmentSummary = {
    ...waiting,
    attachment_id: 'local-3',
    file_name: 'big.pdf',
    size_bytes: 5_242_880,
    pending: 'in_flight',
  };
  const renamed: AttachmentSummary = { ...served, pending: 'queued' };
  bridge.answer('attachments:list', () => [renamed, waiting, sending]);
  render(<AttachmentsPanel taskId="t-1" />);
  const items = await screen.findAllByRole('listitem');
  expect(within(items[0]!).queryByRole('status')).toBeNull();
  expect(within(items[1]!).getByRole('status').textContent).toBe(' Waiting to upload 512 B');
  expect(within(items[2]!).getByRole('status').textContent).toBe(' Uploading 5.0 MB…');
});

test('an upload the network refused says it waits again once the sync status moves, the mirror unchanged', async () => {
  const sending: AttachmentSummary = { ...waiting, pending: 'in_flight' };
  let shown = sending;
  bridge.answer('attachments:list', () => [shown]);
  render(<AttachmentsPanel taskId="t-1" />);
  const row = await screen.findByRole('listitem');
  expect(within(row).getByRole('status').textContent).toBe(' Uploading 512 B…');
  // The request was refused (offline): the change is back in the queue, and the status says offline.
  shown = waiting;
  act(() => bridge.emit('sync:status-changed', syncStatus({ connection: 'offline' })));
  await waitFor(() => expect(within(row).getByRole('status').textContent).toBe(' Waiting to upload 512 B'));
});

test('an upload on its way says how much of it has gone, as main tells it, and that it is being sent', async () => {
  // Queued, as the list read it before the upload began.
  const large: AttachmentSummary = { ...waiting, attachment_id: 'local-4', size_bytes: 26_214_400 };
  bridge.answer('attachments:list', () => [large]);
  render(<AttachmentsPanel taskId="t-1" />);
  const row = await screen.findByRole('listitem');
  expect(within(row).getByRole('status').textContent).toBe(' Waiting to upload 25.0 MB');
  // The body is the file and its form's few hundred bytes: the share is shown of the file's size.
  toldSent('local-4', 0.42);
  expect(row.textContent).toContain('Sending 42% · 10.5 of 25 MB');
  expect(within(row).getByRole('status').textContent).toBe(' 42% · 10.5 of 25 MB');
  expect(row.querySelector('[data-attachment-state="in_flight"]')?.textContent).toBe('Sending');
  // Another attachment's progress is not this row's.
  toldSent('local-9', 1);
  expect(within(row).getByRole('status').textContent).toBe(' 42% · 10.5 of 25 MB');
});

test.each([
  [0, 512, 512, '0% · 0 of 512 B'],
  [700, 812, 512, '86% · 441 of 512 B'],
  [1_000, 2_000, 1_536, '50% · 0.8 of 1.5 KB'],
  [26_214_700, 26_214_700, 26_214_400, '100% · 25 of 25 MB'],
])('%s of %s bytes sent of a %s-byte file reads %s', (sent, total, size, words) => {
  expect(
    uploadWords(
      { created_at: null, pending: 'in_flight', size_bytes: size },
      { sent_bytes: sent, total_bytes: total },
    ),
  ).toBe(words);
});

test('an upload refused part way says it waits again, not the share its attempt had sent', async () => {
  const large: AttachmentSummary = { ...waiting, attachment_id: 'local-4', size_bytes: 26_214_400 };
  let shown: AttachmentSummary = { ...large, pending: 'in_flight' };
  bridge.answer('attachments:list', () => [shown]);
  render(<AttachmentsPanel taskId="t-1" />);
  const row = await screen.findByRole('listitem');
  toldSent('local-4', 0.42);
  expect(within(row).getByRole('status').textContent).toBe(' 42% · 10.5 of 25 MB');
  // The connection dropped part way: the upload is back in the queue and no more bytes are told.
  shown = large;
  act(() => bridge.emit('sync:status-changed', syncStatus({ connection: 'offline' })));
  await waitFor(() => expect(within(row).getByRole('status').textContent).toBe(' Waiting to upload 25.0 MB'));
  expect(row.querySelector('[data-attachment-state="queued"]')).not.toBeNull();
  // The next attempt tells its bytes from the start again.
  toldSent('local-4', 0.1);
  expect(within(row).getByRole('status').textContent).toBe(' 10% · 2.5 of 25 MB');
});

test('a refused or held upload, or one the service holds, says no progress (its mark says where it stands)', () => {
  const progress = { sent_bytes: 10, total_bytes: 20 };
  expect(uploadWords({ created_at: null, pending: 'failed', size_bytes: 20 }, progress)).toBeNull();
  expect(uploadWords({ created_at: '2026-03-01T10:00:00Z', size_bytes: 20 }, progress)).toBeNull();
});

test('files refused before queuing are said in the service words; a queued one reloads the list', async () => {
  const user = userEvent.setup();
  let listed = [served];
  bridge.answer('attachments:list', () => listed);
  bridge.answer('attachment:add', () => {
    listed = [served, waiting];
    return {
      queued: [{ attachment_id: 'local-2', op_id: 'op-2', file_name: 'notes.txt' }],
      refused: [
        {
          file_name: 'setup.exe',
          status: 415,
          type: 'upload-type-not-allowed',
          title: 'File type not allowed',
          detail: 'setup.exe is an executable by its name. Allowed types: PDF documents.',
        },
      ],
    };
  });
  render(<AttachmentsPanel taskId="t-1" />);
  await screen.findByText('plan.pdf');
  await user.click(screen.getByRole('button', { name: 'Attach files…' }));
  expect(bridge.callsOf('attachment:add')).toEqual([{ task_id: 't-1' }]);
  expect((await screen.findByRole('alert')).textContent).toBe(
    'setup.exe was not attached. File type not allowed: setup.exe is an executable by its name. Allowed types: PDF documents.',
  );
  await waitFor(() => expect(screen.getAllByRole('listitem')).toHaveLength(2));
});

test('a file main refuses to open says why in place; opening is asked only on a click', async () => {
  const user = userEvent.setup();
  bridge.answer('attachments:list', () => [served]);
  bridge.refuse('attachment:open', 'not-safe', 'plan.pdf is not opened: The file is a script (#!).');
  render(<AttachmentsPanel taskId="t-1" />);
  await screen.findByText('plan.pdf');
  expect(bridge.callsOf('attachment:open')).toEqual([]);
  await user.click(screen.getByRole('button', { name: 'plan.pdf' }));
  expect(bridge.callsOf('attachment:open')).toEqual([{ attachment_id: 'att-1' }]);
  expect((await screen.findByRole('alert')).textContent).toBe(
    'plan.pdf is not opened: The file is a script (#!).',
  );
});

test('a rename typed in place and a delete are queued as edits of the attachment kind', async () => {
  const user = userEvent.setup();
  bridge.answer('attachments:list', () => [served]);
  bridge.answer('collection:edit', ({ id }) => ({ id, op_id: 'op-r' }));
  bridge.answer('collection:delete', ({ id }) => ({ id, op_id: 'op-d' }));
  render(<AttachmentsPanel taskId="t-1" />);
  await screen.findByText('plan.pdf');
  await user.click(screen.getByRole('button', { name: 'Rename plan.pdf' }));
  const box = screen.getByRole('textbox', { name: 'New name for plan.pdf' });
  await user.clear(box);
  await user.type(box, 'final plan.pdf{Enter}');
  expect(bridge.callsOf('collection:edit')).toEqual([
    { kind: 'attachment', id: 'att-1', patch: { file_name: 'final plan.pdf' } },
  ]);
  await user.click(await screen.findByRole('button', { name: 'Delete plan.pdf' }));
  expect(bridge.callsOf('collection:delete')).toEqual([{ kind: 'attachment', id: 'att-1' }]);
  expect(bridge.callsOf('attachment:open')).toEqual([]);
});

test('a sign-in that may not change attachments lists and opens them but offers no attach, rename or delete', async () => {
  const user = userEvent.setup();
  useSession.setState({
    current: account({ read_only_kinds: [{ kind: 'attachment', scope: 'tasks:write' }] }),
  });
  bridge.answer('attachments:list', () => [served]);
  bridge.answer('attachment:open', () => null);
  render(<AttachmentsPanel taskId="t-1" />);
  await screen.findByText('plan.pdf');
  for (const name of ['Attach files…', 'Rename plan.pdf', 'Delete plan.pdf'])
    expect(screen.queryByRole('button', { name })).toBeNull();
  await user.click(screen.getByRole('button', { name: 'plan.pdf' }));
  expect(bridge.callsOf('attachment:open')).toEqual([{ attachment_id: 'att-1' }]);
});

test.each([
  [null, 'size unknown'],
  [900, '900 B'],
  [1536, '1.5 KB'],
  [250_000, '244 KB'],
  [26_214_400, '25.0 MB'],
])('%s bytes read as %s', (bytes, words) => {
  expect(sizeWords(bytes)).toBe(words);
});

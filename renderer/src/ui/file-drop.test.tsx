// @vitest-environment happy-dom
// Files dropped on a task: on the editor's attachments, a list row or a board
// card. The page sends main each file's name, declared type and the bytes it
// read, never a path; a file over the limit is refused on its size before it
// is read, in the contract's words; the target shows it would take the files
// while they are over it; a sign-in that may not change attachments takes none.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import type { AttachmentAdded } from '../../../ipc/attachment-schemas';
import { UPLOAD_LIMIT_BYTES } from '../../../protocol/upload-rules';
import { BoardCard } from '../board/board-card';
import { useSession } from '../store/session-store';
import { AttachmentsPanel } from '../task-detail/attachments-panel';
import { PlainRow } from '../testing/plain-row';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { account, taskRow } from '../testing/screen-fixtures';
import { TASK_DRAG_TYPE } from './task-drag';

const bridge = fakeBridgeEachTest();

/** What the system hands a drop of files from outside the page. */
function filesDrag(...files: File[]) {
  return { dataTransfer: { files, types: ['Files'] } };
}

function queued(file_name: string): AttachmentAdded {
  return { queued: [{ attachment_id: `local-${file_name}`, op_id: 'op', file_name }], refused: [] };
}

test('a file dropped on the attachments is sent as its name, declared type and bytes, then listed', async () => {
  let listed = 0;
  bridge.answer('attachments:list', () => {
    listed += 1;
    return [];
  });
  bridge.answer('attachment:drop', ({ file_name }) => queued(file_name));
  render(<AttachmentsPanel taskId="t-1" />);
  const section = (await screen.findByRole('heading', { name: 'Attachments (0)' })).closest('section')!;

  fireEvent.dragEnter(section, filesDrag());
  expect(section.classList.contains('is-file-target')).toBe(true);
  fireEvent.dragLeave(section, filesDrag());
  expect(section.classList.contains('is-file-target')).toBe(false);

  fireEvent.dragEnter(section, filesDrag());
  fireEvent.drop(section, filesDrag(new File(['dropped notes'], 'notes.txt', { type: 'text/plain' })));
  expect(section.classList.contains('is-file-target')).toBe(false);
  await waitFor(() => expect(bridge.callsOf('attachment:drop')).toHaveLength(1));
  const [sent] = bridge.callsOf('attachment:drop');
  expect(sent).toMatchObject({ task_id: 't-1', file_name: 'notes.txt', declared_type: 'text/plain' });
  expect(Object.keys(sent!)).not.toContain('path');
  expect(new TextDecoder().decode(sent!.bytes)).toBe('dropped notes');
  // The list is asked again for the file queued.
  await waitFor(() => expect(listed).toBe(2));
});

test('a file over the limit is refused on its size before it is read, and main refusals are said in place', async () => {
  bridge.answer('attachments:list', () => []);
  bridge.answer('attachment:drop', ({ file_name }) => ({
    queued: [],
    refused: [
      {
        file_name,
        status: 415,
        type: 'upload-type-mismatch',
        title: 'File contents do not match its type',
        detail: 'photo.txt holds a PNG image.',
      },
    ],
  }));
  render(<AttachmentsPanel taskId="t-1" />);
  const section = (await screen.findByRole('heading', { name: 'Attachments (0)' })).closest('section')!;
  const big = new File(['x'], 'film.mov', { type: 'video/quicktime' });
  Object.defineProperty(big, 'size', { value: UPLOAD_LIMIT_BYTES + 1 });
  const read = vi.spyOn(big, 'arrayBuffer');
  const mismatch = new File(['not text'], 'photo.txt', { type: 'text/plain' });
  fireEvent.drop(section, filesDrag(big, mismatch));

  const alert = await screen.findByRole('alert');
  await waitFor(() => expect(alert.querySelectorAll('p')).toHaveLength(2));
  expect(alert.textContent).toContain(
    `film.mov was not attached. File too large: Attachments may be at most 25 MB (${UPLOAD_LIMIT_BYTES} bytes); this one is ${UPLOAD_LIMIT_BYTES + 1} bytes.`,
  );
  expect(alert.textContent).toContain(
    'photo.txt was not attached. File contents do not match its type: photo.txt holds a PNG image.',
  );
  expect(read).not.toHaveBeenCalled();
  expect(bridge.callsOf('attachment:drop').map((call) => call.file_name)).toEqual(['photo.txt']);
});

test('a file dropped on a list row is attached to its task; a refusal is said on the app notice', async () => {
  bridge.answer('attachment:drop', ({ file_name }) => ({
    queued: [],
    refused: [
      {
        file_name,
        status: 415,
        type: 'upload-type-not-allowed',
        title: 'File type not allowed',
        detail: '…',
      },
    ],
  }));
  render(
    <div role="grid">
      <PlainRow row={taskRow({ task_id: 't-7', title: 'Ship it' })} />
    </div>,
  );
  const row = screen.getByRole('row');
  fireEvent.dragOver(row, filesDrag());
  expect(row.classList.contains('is-file-target')).toBe(true);
  fireEvent.drop(row, filesDrag(new File(['MZ'], 'setup.exe', { type: 'application/x-msdownload' })));
  await waitFor(() =>
    expect(useSession.getState().notice).toMatchObject({
      type: 'upload-type-not-allowed',
      context: 'setup.exe was not attached',
    }),
  );
  expect(bridge.callsOf('attachment:drop')).toMatchObject([{ task_id: 't-7', file_name: 'setup.exe' }]);
  expect(row.classList.contains('is-file-target')).toBe(false);
});

function renderCard(onDragOver: () => void) {
  return render(
    <ul>
      <BoardCard
        row={taskRow({ task_id: 't-9', title: 'Card' })}
        open={false}
        selected={false}
        onPick={() => undefined}
        onExtend={() => undefined}
        readOnly={false}
        previousName={null}
        nextName={null}
        first
        last
        dropMark={null}
        onStep={() => undefined}
        onDragStart={() => undefined}
        onDragEnd={() => undefined}
        onDragOver={onDragOver}
      />
    </ul>,
  );
}

test('a file dropped on a board card is attached to its task; a card dragged over it still finds its place', async () => {
  bridge.answer('attachment:drop', ({ file_name }) => queued(file_name));
  const boardDragOver = vi.fn();
  const { container } = renderCard(boardDragOver);
  const card = container.querySelector('li')!;

  fireEvent.dragOver(card, { dataTransfer: { types: [TASK_DRAG_TYPE] } });
  expect(boardDragOver).toHaveBeenCalledTimes(1);
  expect(card.classList.contains('is-file-target')).toBe(false);

  fireEvent.dragOver(card, filesDrag());
  expect(boardDragOver).toHaveBeenCalledTimes(1);
  expect(card.classList.contains('is-file-target')).toBe(true);
  fireEvent.drop(card, filesDrag(new File(['%PDF-1.7'], 'spec.pdf', { type: 'application/pdf' })));
  await waitFor(() =>
    expect(bridge.callsOf('attachment:drop')).toMatchObject([{ task_id: 't-9', file_name: 'spec.pdf' }]),
  );
});

test('a sign-in that may not change attachments takes no dropped file', () => {
  useSession.setState({
    current: account({ read_only_kinds: [{ kind: 'attachment', scope: 'tasks:write' }] }),
  });
  const { container } = renderCard(() => undefined);
  const card = container.querySelector('li')!;
  fireEvent.dragOver(card, filesDrag());
  expect(card.classList.contains('is-file-target')).toBe(false);
  fireEvent.drop(card, filesDrag(new File(['notes'], 'notes.txt', { type: 'text/plain' })));
  expect(bridge.callsOf('attachment:drop')).toEqual([]);
});

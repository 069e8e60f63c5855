// A task's attachments, from the mirror (so they show offline): name, type,
// size, who added it and when, an upload still waiting marked so, with whether
// it waits for a push or is being sent and how much of it has gone. "Attach
// files" asks main for its file picker, or files are dropped here (or anywhere
// on the editor, a list row or a board card: ui/file-drop.ts); each is checked before it is
// queued and a refused one is said here in the service's words. A name opens
// the file with the system's default app, only on the person's click; main
// refuses one whose bytes say it runs code and says why, here. Rename and
// Delete are queued like any edit (sent with If-Match).
import { useState } from 'react';
import type { AttachmentAdded, AttachmentSummary } from '../../../ipc/attachment-schemas';
import type { MirrorChanged } from '../../../ipc/screen-schemas';
import { errorType, invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { showProblem } from '../store/session-store';
import { partOfSizeWords, sizeWords } from '../vocabulary/size-words';
import { agoWords, timeWords } from '../vocabulary/task-words';
import { useFileDrop } from '../ui/file-drop';
import { useKindReadOnly } from '../ui/kind-consent';
import { WaitingChangeMark } from '../ui/sync-mark-badge';
import { type UploadProgress, useUploadProgress } from './use-upload-progress';

/**
 * Where an upload not yet on the service stands, with how much it sends:
 * waiting for a push (offline, or behind other changes), or being sent, with
 * the share of it sent so far once main tells it (after the row's "Sending"
 * mark: "Sending 42% · 10.5 of 25 MB"). Null for one the service holds (a
 * waiting rename is marked by its chip alone) and for one refused or held
 * (its mark says so).
 */
export function uploadWords(
  a: Pick<AttachmentSummary, 'created_at' | 'pending' | 'size_bytes'>,
  progress?: UploadProgress,
): string | null {
  if (a.created_at !== null) return null;
  if (a.pending !== 'queued' && a.pending !== 'in_flight') return null;
  if (progress !== undefined && progress.total_bytes > 0) {
    const share = progress.sent_bytes / progress.total_bytes;
    // The body holds the form's headers too: its share is shown of the file's own size.
    const size = a.size_bytes ?? progress.total_bytes;
    return `${Math.floor(share * 100)}% · ${partOfSizeWords(Math.round(share * size), size)}`;
  }
  if (a.pending === 'queued') return `Waiting to upload ${sizeWords(a.size_bytes)}`;
  return `Uploading ${sizeWords(a.size_bytes)}…`;
}

export function AttachmentsPanel({ taskId }: { taskId: string }) {
  const concerns = (change: MirrorChanged) => change.task_ids === null || change.task_ids.includes(taskId);
  const read = useBridgeRead(
    'attachments:list',
    { task_id: taskId },
    // The sync status too: an upload the network refused goes back to waiting with no change to the
    // mirror (its row said 'Sending' until the next one under load: the e2e drop offline).
    { reloadOn: { collections: ['task_attachments'], when: concerns, syncStatus: true, delayMs: 0 } },
  );
  const [refused, setRefused] = useState<AttachmentAdded['refused']>([]);
  const [notOpened, setNotOpened] = useState<string | null>(null);
  const attachments = read.data ?? [];
  const progressOf = useUploadProgress(read);
  // A sign-in that may not change attachments (read-only, or tasks:write not granted) is offered no write.
  const readOnly = useKindReadOnly('attachment');

  function added(answer: AttachmentAdded): void {
    setRefused(answer.refused);
    if (answer.queued.length > 0) read.reload();
  }
  // Files dropped here are said here, refusals included, as picked ones are.
  const drop = useFileDrop(taskId, added);

  async function attach(): Promise<void> {
    try {
      added(await invoke('attachment:add', { task_id: taskId }));
    } catch (error) {
      showProblem(error, 'Attaching files');
    }
  }

  async function open(attachmentId: string): Promise<void> {
    setNotOpened(null);
    try {
      await invoke('attachment:open', { attachment_id: attachmentId });
    } catch (error) {
      const type = errorType(error);
      if (type === 'not-safe' || type === 'offline') setNotOpened((error as Error).message);
      else showProblem(error, 'Opening the file');
    }
  }

  return (
    <section
      aria-labelledby={`${taskId}-attachments`}
      className={`attachments${drop.over ? ' is-file-target' : ''}`}
      {...drop.handlers}
    >
      <h3 id={`${taskId}-attachments`}>Attachments ({attachments.length})</h3>
      {attachments.length === 0 ? (
        <p className="muted">{read.data === null ? 'Loading attachments…' : 'No attachments.'}</p>
      ) : (
        <ul className="attachment-list">
          {attachments.map((a) => (
            <AttachmentRow
              key={a.attachment_id}
              attachment={a}
              progress={progressOf(a)}
              onOpen={() => void open(a.attachment_id)}
              onChanged={read.reload}
              readOnly={readOnly}
            />
          ))}
        </ul>
      )}
      {refused.length === 0 ? null : (
        <div role="alert" className="attachment-refusals">
          {refused.map((r) => (
            <p key={r.file_name}>
              {r.file_name} was not attached. {r.title}: {r.detail}
            </p>
          ))}
        </div>
      )}
      {notOpened === null ? null : <p role="alert">{notOpened}</p>}
      {readOnly ? null : (
        <button type="button" className="button" onClick={() => void attach()}>
          Attach files…
        </button>
      )}
    </section>
  );
}

/** One attachment: its name (a click opens it), what it is, who added it when, its mark; renamed in place, or deleted. */
function AttachmentRow({
  attachment: a,
  progress,
  onOpen,
  onChanged,
  readOnly,
}: {
  attachment: AttachmentSummary;
  /** Its upload's bytes sent so far, once main told them. */
  progress: UploadProgress | undefined;
  onOpen: () => void;
  onChanged: () => void;
  readOnly: boolean;
}) {
  const [name, setName] = useState<string | null>(null);
  const upload = uploadWords(a, progress);
  // Bytes on their way say it is being sent before the list is read again.
  const state =
    progress !== undefined && a.pending === 'queued' && a.created_at === null ? 'in_flight' : a.pending;

  async function rename(fileName: string): Promise<void> {
    setName(null);
    try {
      await invoke('collection:edit', {
        kind: 'attachment',
        id: a.attachment_id,
        patch: { file_name: fileName },
      });
      onChanged();
    } catch (error) {
      showProblem(error, 'Renaming the attachment');
    }
  }

  async function remove(): Promise<void> {
    try {
      await invoke('collection:delete', { kind: 'attachment', id: a.attachment_id });
      onChanged();
    } catch (error) {
      showProblem(error, 'Deleting the attachment');
    }
  }

  return (
    <li>
      {name === null ? (
        <button type="button" className="link-button" onClick={onOpen}>
          {a.file_name}
        </button>
      ) : (
        <form
          className="attachment-rename"
          onSubmit={(event) => {
            event.preventDefault();
            const typed = name.trim();
            if (typed === '' || typed === a.file_name) setName(null);
            else void rename(typed);
          }}
        >
          <input
            aria-label={`New name for ${a.file_name}`}
            value={name}
            maxLength={255}
            autoFocus
            onChange={(event) => setName(event.target.value)}
            onKeyDown={(event) => {
              if (event.key === 'Escape') setName(null);
            }}
          />
          <button type="submit">Save</button>
        </form>
      )}{' '}
      <span className="muted">
        {a.content_type ?? 'unknown type'} · {sizeWords(a.size_bytes)}
        {a.created_by === null ? '' : ` · ${a.created_by}`}
        {a.created_at === null ? (
          ''
        ) : (
          <>
            {' · '}
            <time dateTime={a.created_at} title={timeWords(a.created_at)}>
              {agoWords(a.created_at)}
            </time>
          </>
        )}
      </span>
      <WaitingChangeMark state={state} kinds="attachments" stateAttribute="data-attachment-state" />
      {upload === null ? null : (
        <span className="attachment-upload muted" role="status">
          {' '}
          {upload}
        </span>
      )}
      {name === null && !readOnly ? (
        <>
          {' '}
          <button
            type="button"
            className="link-button"
            aria-label={`Rename ${a.file_name}`}
            onClick={() => setName(a.file_name)}
          >
            Rename
          </button>{' '}
          <button
            type="button"
            className="link-button"
            aria-label={`Delete ${a.file_name}`}
            onClick={() => void remove()}
          >
            Delete
          </button>
        </>
      ) : null}
    </li>
  );
}

// A task's comment threads (replies indented under the comment they answer),
// with a composer, reply, and edit or delete of one's own comments (an
// organization owner or admin may delete others' too, as the service allows).
// Every write is queued through the bridge and shows at once; a comment whose
// change waits carries a mark until the server has it.
import { useKindReadOnly } from '../ui/kind-consent';
import { useEffect, useState } from 'react';
import type { TaskActivity } from '../../../ipc/screen-schemas';
import { invoke } from '../bridge/svc';
import { useStableKeys } from '../data/use-remaps';
import { readDrafts, useDraftText } from '../store/draft-store';
import { openPendingChanges } from '../store/trust-store';
import { showProblem } from '../store/session-store';
import { useWorkspace } from '../store/workspace-store';
import type { MarkWords } from '../vocabulary/sync-mark-words';
import { agoWords, timeWords } from '../vocabulary/task-words';
import { CommentText } from './comment-body';
import { MentionTextarea } from './mention-textarea';
import { WaitingChangeMark } from '../ui/sync-mark-badge';
import './comments.css';

type Comment = TaskActivity['comments'][number];

const DELETE_REFUSED_WORDS: MarkWords = {
  label: 'Not deleted',
  hint: 'The server refused to delete this comment: see pending changes to retry or drop the delete.',
  mark: 'failed',
};

function pendingOf(comment: Comment): string | null {
  return typeof comment.pending === 'string' && comment.pending !== 'done' ? comment.pending : null;
}

interface ThreadContext {
  taskId: string;
  me: string | null;
  /** The person is an owner or admin of the organization: the service lets them delete anyone's comment. */
  deletesAny: boolean;
  readOnly: boolean;
  usernames: readonly string[];
  /** The React key of a comment: its first id, so one sent keeps its element (and a reply being written under it). */
  keyOf: (commentId: string) => string;
  /** Comments with a reply drafted and not sent: their reply box opens with it. */
  replyDrafts: ReadonlySet<string>;
}

/** What a composer types into: a kept draft (useDraftText) or, for an edit, the box's own state. */
interface ComposerText {
  text: string;
  setText: (text: string) => void;
  /** Sent or given up. */
  clear: () => void;
}

function useLocalText(initial: string): ComposerText {
  const [text, setText] = useState(initial);
  return { text, setText, clear: () => setText('') };
}

async function queue(action: () => Promise<unknown>, context: string): Promise<boolean> {
  try {
    await action();
    return true;
  } catch (error) {
    showProblem(error, context);
    return false;
  }
}

function Composer({
  label,
  button,
  text: { text: draft, setText: setDraft, clear },
  kept = false,
  context,
  onDone,
  onCancel,
  autoFocus = false,
  send,
}: {
  label: string;
  button: string;
  text: ComposerText;
  /** The text is a draft kept until sent or discarded: a Discard button gives it up. */
  kept?: boolean;
  context: ThreadContext;
  onDone?: () => void;
  onCancel?: () => void;
  autoFocus?: boolean;
  send: (content: string) => Promise<boolean>;
}) {
  const [sending, setSending] = useState(false);
  const empty = draft.trim() === '';
  const submit = async () => {
    if (empty || sending) return;
    setSending(true);
    // What was typed stays in the box until the change is queued: a refusal loses nothing.
    const queued = await send(draft);
    setSending(false);
    if (queued) {
      clear();
      onDone?.();
    }
  };
  return (
    <form
      className="comment-composer"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <MentionTextarea
        label={label}
        value={draft}
        onChange={setDraft}
        onSubmit={() => void submit()}
        {...(onCancel ? { onCancel } : {})}
        usernames={context.usernames}
        disabled={context.readOnly}
        autoFocus={autoFocus}
        placeholder="Write a comment: **bold**, `code`, @name"
      />
      <div className="comment-composer-actions">
        <button type="submit" className="button primary" disabled={empty || sending || context.readOnly}>
          {button}
        </button>
        {onCancel ? (
          <button type="button" className="button" onClick={onCancel}>
            Cancel
          </button>
        ) : kept && !empty ? (
          <button type="button" className="button" onClick={clear}>
            Discard draft
          </button>
        ) : null}
      </div>
      {kept && !empty ? (
        <p className="hint comment-draft-note">
          Draft: kept until you send or {onCancel ? 'cancel' : 'discard'} it.
        </p>
      ) : null}
    </form>
  );
}

/** Editing one's own comment: the box starts from its text and is not kept as a draft. */
function EditComposer({
  text,
  context,
  onClose,
  send,
}: {
  text: string;
  context: ThreadContext;
  onClose: () => void;
  send: (content: string) => Promise<boolean>;
}) {
  const local = useLocalText(text);
  return (
    <Composer
      label="Edit comment"
      button="Save"
      text={local}
      context={context}
      autoFocus
      onDone={onClose}
      onCancel={onClose}
      send={send}
    />
  );
}

/** A reply being written: kept as a draft when the panel closes, until sent or cancelled. */
function ReplyComposer({
  commentId,
  author,
  context,
  onClose,
}: {
  commentId: string;
  author: string;
  context: ThreadContext;
  onClose: () => void;
}) {
  const draft = useDraftText(context.taskId, commentId);
  return (
    <Composer
      label={`Reply to ${author}`}
      button="Reply"
      text={draft}
      kept
      context={context}
      autoFocus
      onDone={onClose}
      // Cancel gives the reply up; closing the panel or leaving the screen keeps it.
      onCancel={() => {
        draft.clear();
        onClose();
      }}
      send={(content) =>
        queue(
          () => invoke('comment:create', { task_id: context.taskId, content, parent_comment_id: commentId }),
          'Replying',
        )
      }
    />
  );
}

function CommentItem({ comment, context }: { comment: Comment; context: ThreadContext }) {
  const [chosen, setMode] = useState<'read' | 'reply' | 'edit' | 'delete' | null>(null);
  // Until the person chooses, a reply drafted before (the panel closed, the app restarted) is open with its text.
  const mode = chosen ?? (context.replyDrafts.has(comment.comment_id) ? 'reply' : 'read');
  const text = comment.content ?? comment.comment ?? '';
  const pending = pendingOf(comment);
  // A delete the service refused keeps the comment on screen, said as such; it waits in pending changes.
  const deleteWaiting = comment.delete_waiting === true;

  // A comment not yet on the server is the person's own; the service names the author of the others.
  const mine =
    comment.comment_id.startsWith('local-') || (context.me !== null && comment.created_by === context.me);
  const author = comment.created_by ?? (mine ? context.me : null) ?? 'Someone';
  // Someone else's comment is named: an admin deleting it should see whose words go.
  const confirmWords = mine ? 'Delete this comment?' : `Delete this comment by ${author}?`;
  return (
    <li className={`comment${pending === null ? '' : ' is-pending'}`} data-comment-id={comment.comment_id}>
      <div className="comment-meta">
        <strong>{author}</strong>
        <time dateTime={comment.created_at ?? undefined} title={timeWords(comment.created_at)}>
          {agoWords(comment.created_at)}
        </time>
        <WaitingChangeMark
          state={pending}
          kinds="comments"
          stateAttribute="data-comment-pending"
          words={deleteWaiting ? DELETE_REFUSED_WORDS : undefined}
        />
        {pending !== null && pending !== 'queued' && pending !== 'in_flight' ? (
          <button type="button" className="link-button" onClick={openPendingChanges}>
            See pending changes
          </button>
        ) : null}
      </div>
      {mode === 'edit' ? (
        <EditComposer
          text={text}
          context={context}
          onClose={() => setMode('read')}
          send={(content) =>
            content === text
              ? Promise.resolve(true)
              : queue(
                  () => invoke('comment:edit', { comment_id: comment.comment_id, content }),
                  'Editing the comment',
                )
          }
        />
      ) : (
        <CommentText text={text} />
      )}
      {context.readOnly || mode === 'edit' ? null : (
        <div className="comment-actions">
          <button
            type="button"
            className="link-button"
            onClick={() => setMode(mode === 'reply' ? 'read' : 'reply')}
          >
            Reply
          </button>
          {mine && !deleteWaiting ? (
            <button type="button" className="link-button" onClick={() => setMode('edit')}>
              Edit
            </button>
          ) : null}
          {(mine || context.deletesAny) && !deleteWaiting ? (
            <button type="button" className="link-button danger-link" onClick={() => setMode('delete')}>
              Delete
            </button>
          ) : null}
        </div>
      )}
      {mode === 'delete' ? (
        <div className="comment-confirm" role="group" aria-label={confirmWords}>
          <span>{confirmWords}</span>
          <button
            type="button"
            className="button danger"
            onClick={() =>
              void queue(
                () => invoke('comment:delete', { comment_id: comment.comment_id }),
                'Deleting the comment',
              ).then(() => setMode('read'))
            }
          >
            Delete
          </button>
          <button type="button" className="button" onClick={() => setMode('read')}>
            Cancel
          </button>
        </div>
      ) : null}
      {(comment.replies && comment.replies.length > 0) || mode === 'reply' ? (
        <ul className="replies">
          {(comment.replies ?? []).map((reply) => (
            <CommentItem key={context.keyOf(reply.comment_id)} comment={reply} context={context} />
          ))}
          {mode === 'reply' ? (
            <li className="comment-reply-box">
              <ReplyComposer
                commentId={comment.comment_id}
                author={author}
                context={context}
                onClose={() => setMode('read')}
              />
            </li>
          ) : null}
        </ul>
      ) : null}
    </li>
  );
}

/** The comments of the task with a reply drafted, read once as the thread opens. */
function useReplyDrafts(taskId: string): ReadonlySet<string> {
  const [replies, setReplies] = useState<ReadonlySet<string>>(new Set());
  useEffect(() => {
    let live = true;
    void readDrafts(taskId).then((drafts) => {
      if (live)
        setReplies(new Set(drafts.flatMap((draft) => (draft.kind === 'reply' ? [draft.reply_to] : []))));
    });
    return () => {
      live = false;
    };
  }, [taskId]);
  return replies;
}

export function CommentsThread({
  taskId,
  comments,
  cached,
}: {
  taskId: string;
  comments: readonly Comment[];
  cached: boolean;
}) {
  const me = useWorkspace((state) => state.workspace?.me?.username ?? null);
  // The person's organization role, as mirrored with the members (unknown until they are: no Delete offered).
  const deletesAny = useWorkspace((state) => {
    const userId = state.workspace?.me?.user_id;
    const role = state.workspace?.members.find((m) => m.user_id === userId)?.role;
    return role === 'owner' || role === 'admin';
  });
  const members = useWorkspace((state) => state.workspace?.members);
  // A read-only account, or a sign-in not allowed tasks:write (which comments need).
  const readOnly = useKindReadOnly('comment');
  const usernames = (members ?? []).filter((m) => m.active).map((m) => m.username);
  // A comment sent gets the server's id in place of its temporary one; keyed by the
  // temporary id still, it is the same element, and what is being typed under it stays.
  const keyOf = useStableKeys();
  const replyDrafts = useReplyDrafts(taskId);
  const draft = useDraftText(taskId);
  const context: ThreadContext = { taskId, me, deletesAny, readOnly, usernames, keyOf, replyDrafts };
  return (
    <>
      {comments.length === 0 ? (
        <p className="muted">{cached ? 'No comments.' : 'Comments show once the app has fetched them.'}</p>
      ) : (
        <ul className="comments">
          {comments.map((comment) => (
            <CommentItem key={context.keyOf(comment.comment_id)} comment={comment} context={context} />
          ))}
        </ul>
      )}
      {readOnly ? null : (
        <Composer
          label="New comment"
          button="Comment"
          text={draft}
          kept
          context={context}
          send={(content) =>
            queue(() => invoke('comment:create', { task_id: taskId, content }), 'Commenting')
          }
        />
      )}
    </>
  );
}

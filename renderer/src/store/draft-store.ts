// What the person started writing and has not sent (a comment, a reply, a new
// task), kept by main in the account's mirror until sent or discarded. Typing
// keeps a draft after a pause (never a write per keystroke); a box that closes
// and an account switch write what waits at once. The tasks that have a draft
// are known here for their mark in the list and the editor.
import { useEffect, useRef, useState } from 'react';
import { create } from 'zustand';
import type { Draft, DraftKey } from '../../../ipc/draft-schemas';
import { invoke } from '../bridge/svc';

/** A pause in typing this long keeps the draft. */
export const DRAFT_SAVE_DELAY_MS = 500;

export interface DraftMarks {
  /** Tasks with a comment or reply not sent yet. */
  taskIds: ReadonlySet<string>;
}

export const useDrafts = create<DraftMarks>(() => ({ taskIds: new Set() }));

/** One name per draft key. */
function slotOf(key: DraftKey): string {
  if (key.kind === 'new-task') return 'new-task';
  return `${key.kind}\u0000${key.task_id}\u0000${key.kind === 'reply' ? key.reply_to : ''}`;
}

function keyOf(draft: Draft): DraftKey {
  if (draft.kind === 'new-task') return { kind: 'new-task' };
  if (draft.kind === 'reply') return { kind: 'reply', task_id: draft.task_id, reply_to: draft.reply_to };
  return { kind: 'comment', task_id: draft.task_id };
}

/** Per key, what waits to be written (null: the draft goes) and its timer. */
const waiting = new Map<
  string,
  { key: DraftKey; draft: Draft | null; timer: ReturnType<typeof setTimeout> }
>();

async function write(key: DraftKey, draft: Draft | null): Promise<void> {
  try {
    if (draft === null) await invoke('drafts:discard', key);
    else await invoke('drafts:save', draft);
  } catch {
    // A draft not kept costs the person nothing they have not still on screen; the next pause tries again.
    return;
  }
  if (key.kind !== 'new-task') await refreshDraftMarks();
}

/** Keeps `draft` (or drops the draft of `key`, when null) once typing pauses. */
export function keepDraft(key: DraftKey, draft: Draft | null): void {
  const slot = slotOf(key);
  const before = waiting.get(slot);
  if (before) clearTimeout(before.timer);
  const timer = setTimeout(() => {
    waiting.delete(slot);
    void write(key, draft);
  }, DRAFT_SAVE_DELAY_MS);
  waiting.set(slot, { key, draft, timer });
}

/** Writes every draft still waiting for its pause, now (a box closing, an account switch). */
export async function flushDrafts(): Promise<void> {
  const now = [...waiting.values()];
  waiting.clear();
  for (const entry of now) clearTimeout(entry.timer);
  await Promise.all(now.map((entry) => write(entry.key, entry.draft)));
}

/** The draft is sent or the person gave it up: it goes now, and nothing waiting brings it back. */
export function discardDraft(key: DraftKey): Promise<void> {
  const slot = slotOf(key);
  const before = waiting.get(slot);
  if (before) clearTimeout(before.timer);
  waiting.delete(slot);
  return write(key, null);
}

/** Reads which tasks have a draft (after a sign-in or switch, and each write). */
export async function refreshDraftMarks(): Promise<void> {
  try {
    const drafts = await invoke('drafts:list');
    const taskIds = new Set(drafts.flatMap((draft) => (draft.kind === 'new-task' ? [] : [draft.task_id])));
    useDrafts.setState({ taskIds });
  } catch {
    // Marks are a help; without them the drafts are still there when the task opens.
  }
}

/** The drafts on one task, or every draft; [] when they cannot be read. */
export async function readDrafts(taskId?: string): Promise<Draft[]> {
  try {
    return await invoke('drafts:list', taskId === undefined ? undefined : { task_id: taskId });
  } catch {
    return [];
  }
}

/**
 * A text box's draft (a comment on `taskId`, or a reply to `replyTo` there):
 * starts from the kept one (unless the person typed first), kept as they
 * type, written at once when the box goes away.
 */
export function useDraftText(
  taskId: string,
  replyTo: string | null = null,
): {
  text: string;
  setText: (text: string) => void;
  /** Sent or given up: empty and no draft kept. */
  clear: () => void;
} {
  const [text, setTextState] = useState('');
  const typed = useRef(false);
  const key: DraftKey =
    replyTo === null
      ? { kind: 'comment', task_id: taskId }
      : { kind: 'reply', task_id: taskId, reply_to: replyTo };
  const slot = slotOf(key);
  useEffect(() => {
    let live = true;
    void readDrafts(taskId).then((drafts) => {
      const kept = drafts.find((draft) => slotOf(keyOf(draft)) === slot);
      if (live && !typed.current && kept !== undefined && kept.kind !== 'new-task') setTextState(kept.text);
    });
    return () => {
      live = false;
      void flushDrafts();
    };
  }, [taskId, slot]);
  return {
    text,
    setText: (next) => {
      typed.current = true;
      setTextState(next);
      const draft: Draft =
        replyTo === null
          ? { kind: 'comment', task_id: taskId, text: next }
          : { kind: 'reply', task_id: taskId, reply_to: replyTo, text: next };
      keepDraft(key, next.trim() === '' ? null : draft);
    },
    clear: () => {
      typed.current = true;
      setTextState('');
      void discardDraft(key);
    },
  };
}

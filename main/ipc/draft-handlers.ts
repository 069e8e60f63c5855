// The draft calls: a person's unsent comments, replies and new task, kept in
// the signed-in account's mirror (db/drafts/), so each account has its own and
// they outlive a restart. A stored draft that no longer reads as one (written
// by a later version, say) is left out rather than failing the list.
import type { DraftKey as StoredKey } from '../../db/drafts/mirror-drafts';
import { writeWhenFree } from '../../db/write-when-free';
import { type Draft, type DraftKey, draftSchema } from '../../ipc/draft-schemas';
import type { IpcHandlers } from './gate';
import { type ActiveMirror, signedInAccount } from './task-handlers';

export interface DraftHandlerDependencies {
  readonly active: () => ActiveMirror | null;
}

function storedKey(key: DraftKey): StoredKey {
  if (key.kind === 'new-task') return { kind: key.kind, taskId: '', replyTo: '' };
  return { kind: key.kind, taskId: key.task_id, replyTo: key.kind === 'reply' ? key.reply_to : '' };
}

export function draftHandlers(dependencies: DraftHandlerDependencies): IpcHandlers {
  const active = () => signedInAccount(dependencies.active);
  return {
    'drafts:list': (input): Draft[] => {
      const { mirror } = active();
      return mirror.drafts.list(input?.task_id).flatMap((stored) => {
        const wire =
          stored.kind === 'new-task'
            ? { kind: stored.kind, fields: stored.body }
            : {
                kind: stored.kind,
                task_id: stored.taskId,
                ...(stored.kind === 'reply' ? { reply_to: stored.replyTo } : {}),
                text: (stored.body as { text?: unknown } | null)?.text,
              };
        const parsed = draftSchema.safeParse(wire);
        return parsed.success ? [parsed.data] : [];
      });
    },
    'drafts:save': async (draft) => {
      const { mirror } = active();
      const body = draft.kind === 'new-task' ? draft.fields : { text: draft.text };
      await writeWhenFree(mirror, () => mirror.drafts.save(storedKey(draft), body));
      return null;
    },
    'drafts:discard': async (key) => {
      const { mirror } = active();
      await writeWhenFree(mirror, () => mirror.drafts.discard(storedKey(key)));
      return null;
    },
  };
}

// One task as the editor shows it: loaded from the mirror, reloaded when the
// mirror says it changed (a push settled it, a pull brought a remote edit, or
// its temporary id was replaced), and edited through the bridge, which
// applies each change at once and queues it for the server.
import { useCallback, useLayoutEffect, useRef } from 'react';
import type {
  MirrorChanged,
  TaskActivity,
  TaskDetail,
  TaskFamily,
  TaskPatchInput,
} from '../../../ipc/screen-schemas';
import { errorType, invoke } from '../bridge/svc';
import { useBridgeRead } from '../data/use-bridge-read';
import { useRemaps } from '../data/use-remaps';
import { showProblem } from '../store/session-store';
import { followRemap, openTask } from '../store/view-store';
import { fieldWord } from '../vocabulary/task-words';

export interface TaskState {
  detail: TaskDetail | null;
  /** The problem type when the task could not be read (`not-found`, …). */
  problem: string | null;
  save: (patch: TaskPatchInput) => Promise<boolean>;
}

/**
 * The tasks whose state the editor shows: the task, its parent and its sub-tasks (each with its
 * "not sent yet"). A push settling a sub-task names the sub-task alone, not its parent.
 */
function tasksShownWith(taskId: string, family: TaskFamily | null): Set<string> {
  const ids = new Set([taskId]);
  if (family === null) return ids;
  if (family.parent !== null) ids.add(family.parent.task_id);
  for (const sub of family.sub_tasks) ids.add(sub.task_id);
  return ids;
}

export function useTask(taskId: string): TaskState {
  // The editor is keyed by task id: a new task mounts a new editor, so nothing stale to clear here.
  // The tasks on show as last read: the change test below outlives the render that made it.
  const shown = useRef(tasksShownWith(taskId, null));
  const read = useBridgeRead(
    'task:get',
    { task_id: taskId },
    {
      reloadOn: {
        collections: ['tasks'],
        // A replaced temporary id is followed (the editor opens the new id), not read again.
        when: (change) =>
          !change.remapped.some((r) => r.from === taskId) &&
          (change.task_ids === null || change.task_ids.some((id) => shown.current.has(id))),
        delayMs: 0,
      },
    },
  );
  const family = read.data?.family ?? null;
  useLayoutEffect(() => {
    shown.current = tasksShownWith(taskId, family);
  }, [taskId, family]);
  useRemaps((remaps) => {
    const remap = remaps.find((r) => r.from === taskId);
    if (remap) followRemap(remap.from, remap.to);
  });
  const { set } = read;

  const save = useCallback(
    async (patch: TaskPatchInput) => {
      try {
        set(await invoke('task:edit', { task_id: taskId, patch }));
        return true;
      } catch (error) {
        const fields = Object.keys(patch).map(fieldWord).join(', ');
        showProblem(error, `Saving ${fields.toLowerCase()}`);
        if (errorType(error) === 'not-found') openTask(null);
        return false;
      }
    },
    [taskId, set],
  );

  return { detail: read.data, problem: read.error === null ? null : errorType(read.error), save };
}

const NO_ACTIVITY: TaskActivity = { comments: [], history: [], cached: false };

export function useTaskActivity(taskId: string): TaskActivity | null {
  const concerns = (change: MirrorChanged) => change.task_ids === null || change.task_ids.includes(taskId);
  const read = useBridgeRead(
    'task:activity',
    // Fresh comments are asked for once per opening; their arrival reloads without asking again.
    { task_id: taskId, refresh: true },
    {
      reloadInput: { task_id: taskId, refresh: false },
      reloadOn: { collections: ['task_comments', 'task_history'], when: concerns, delayMs: 0 },
    },
  );
  return read.error === null ? read.data : NO_ACTIVITY;
}

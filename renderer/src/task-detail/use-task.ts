// One task as the editor shows it: loaded from the mirror, reloaded when the
// mirror says it changed (a push settled it, a pull brought a remote edit, or
// its temporary id was replaced), and edited through the bridge, which
// applies each change at once and queues it for the server.
import { useCallback, useEffect, useState } from 'react';
import type { TaskActivity, TaskDetail, TaskPatchInput } from '../../../main/ipc/screen-schemas';
import { errorType, invoke, subscribe } from '../bridge/svc';
import { showProblem } from '../store/session-store';
import { followRemap, openTask } from '../store/view-store';
import { fieldWord } from '../vocabulary/task-words';

export interface TaskState {
  detail: TaskDetail | null;
  /** The problem type when the task could not be read (`not-found`, …). */
  problem: string | null;
  save: (patch: TaskPatchInput) => Promise<boolean>;
}

export function useTask(taskId: string): TaskState {
  const [detail, setDetail] = useState<TaskDetail | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    const load = () => {
      invoke('task:get', { task_id: taskId })
        .then((found) => {
          if (!cancelled) {
            setDetail(found);
            setProblem(null);
          }
        })
        .catch((error: unknown) => {
          if (!cancelled) setProblem(errorType(error));
        });
    };
    // The editor is keyed by task id: a new task mounts a new editor, so nothing stale to clear here.
    load();
    const stop = subscribe('mirror:changed', (change) => {
      const remap = change.remapped.find((r) => r.from === taskId);
      if (remap) {
        followRemap(remap.from, remap.to);
        return;
      }
      if (
        change.collections.includes('tasks') &&
        (change.task_ids === null || change.task_ids.includes(taskId))
      ) {
        load();
      }
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [taskId]);

  const save = useCallback(
    async (patch: TaskPatchInput) => {
      try {
        setDetail(await invoke('task:edit', { task_id: taskId, patch }));
        return true;
      } catch (error) {
        const fields = Object.keys(patch).map(fieldWord).join(', ');
        showProblem(error, `Saving ${fields.toLowerCase()}`);
        if (errorType(error) === 'not-found') openTask(null);
        return false;
      }
    },
    [taskId],
  );

  return { detail, problem, save };
}

export function useTaskActivity(taskId: string): TaskActivity | null {
  const [activity, setActivity] = useState<TaskActivity | null>(null);
  useEffect(() => {
    let cancelled = false;
    const load = (refresh = false) => {
      invoke('task:activity', { task_id: taskId, refresh })
        .then((found) => {
          if (!cancelled) setActivity(found);
        })
        .catch(() => {
          if (!cancelled) setActivity({ comments: [], history: [], cached: false });
        });
    };
    // Fresh comments are asked for once per opening; their arrival reloads without asking again.
    load(true);
    const stop = subscribe('mirror:changed', (change) => {
      const concerns = change.task_ids === null || change.task_ids.includes(taskId);
      const activityChanged =
        change.collections.includes('task_comments') || change.collections.includes('task_history');
      if (concerns && activityChanged) load(false);
    });
    return () => {
      cancelled = true;
      stop();
    };
  }, [taskId]);
  return activity;
}

// Completing a task whose sub-tasks are not all done asks first, wherever it
// is asked for (the editor's Status, the palette, the 4 key): its sub-tasks are
// not completed with it, and the person should know they stay open.
import { create } from 'zustand';
import { invoke } from '../bridge/svc';
import { showProblem, useSession } from '../store/session-store';
import { announce } from '../store/view-store';
import { valueWord } from '../vocabulary/task-words';
import { Question } from './question';

interface Question {
  taskId: string;
  title: string;
  /** Its sub-tasks not completed. */
  open: number;
}

const useCompletionQuestion = create<{ question: Question | null }>(() => ({ question: null }));

/** "1 open sub-task", "3 sub-tasks". */
export function subTaskCountWords(count: number, what = 'open '): string {
  return `${count} ${what}sub-task${count === 1 ? '' : 's'}`;
}

async function complete(taskId: string): Promise<void> {
  try {
    const detail = await invoke('task:edit', { task_id: taskId, patch: { status: 'completed' } });
    announce(`Status of “${detail.task.title}” set to ${valueWord('completed')}.`);
  } catch (error) {
    showProblem(error, 'Completing the task');
  }
}

/**
 * Completes the task, asking first when some of its sub-tasks are open. What
 * the caller knows of it saves a read; without it the task is read from main.
 */
export async function completeTask(taskId: string, known?: { title: string; open: number }): Promise<void> {
  let facts = known;
  if (facts === undefined) {
    try {
      const detail = await invoke('task:get', { task_id: taskId });
      facts = {
        title: detail.task.title,
        open: detail.family.sub_tasks.length - detail.family.sub_tasks_done,
      };
    } catch (error) {
      showProblem(error, 'Completing the task');
      return;
    }
  }
  // An account that can only read is refused either way: it is told so, not asked.
  const readOnly = useSession.getState().current?.read_only ?? false;
  if (facts.open > 0 && !readOnly) useCompletionQuestion.setState({ question: { taskId, ...facts } });
  else await complete(taskId);
}

/** The question, when one is asked: rendered once in the window. */
export function CompletionQuestion() {
  const question = useCompletionQuestion((state) => state.question);
  if (question === null) return null;
  const close = () => useCompletionQuestion.setState({ question: null });
  return (
    <Question
      label="Complete this task?"
      confirmLabel="Complete anyway"
      onConfirm={() => {
        close();
        void complete(question.taskId);
      }}
      onCancel={close}
    >
      ‘{question.title}’ has {subTaskCountWords(question.open)}. Complete it anyway? Its sub-tasks stay as
      they are.
    </Question>
  );
}

// A task carried by drag and drop: list rows and board cards put its id on the
// drag under one type; whatever takes a task (a sprint in the sidebar, a board
// column) reads it from there.
import type { DragEvent } from 'react';

export const TASK_DRAG_TYPE = 'application/x-svc-task';

/** Starts carrying a task (its title too, for a drop outside the app). */
export function carryTask(event: DragEvent, taskId: string, title: string): void {
  event.dataTransfer.setData(TASK_DRAG_TYPE, taskId);
  event.dataTransfer.setData('text/plain', title);
  event.dataTransfer.effectAllowed = 'move';
}

/** Whether a drag carries a task (its data is readable only on drop; its types before). */
export function carriesTask(event: DragEvent): boolean {
  return event.dataTransfer.types.includes(TASK_DRAG_TYPE);
}

/** The task a drop brought, or null. */
export function droppedTask(event: DragEvent): string | null {
  const taskId = event.dataTransfer.getData(TASK_DRAG_TYPE);
  return taskId === '' ? null : taskId;
}

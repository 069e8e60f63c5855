// A link the app was opened with (svc-desktop://task/<id>), as main routed it:
// open the task on its account, ask which account when several hold it, or
// show the notice. Requests are taken from main (`link:take`) when it says one
// waits and once the session has started, so a link that launched the app is
// not lost while the page loads.
import { create } from 'zustand';
import type { LinkRequest } from '../../../ipc/link-schemas';
import { invoke, subscribe } from '../bridge/svc';
import { showNotice, showProblem, switchAccount, useSession } from './session-store';
import { announce, navigate, openTask, useView } from './view-store';

/** A task several accounts hold: the chooser is up until the person picks one or cancels. */
export interface AccountChoice {
  taskId: string;
  accountIds: readonly string[];
}

export const useLinkChoice = create<{ choice: AccountChoice | null }>(() => ({ choice: null }));

/** Shows the task on this account: switched to first when another is on show. */
export async function openTaskInAccount(accountId: string, taskId: string): Promise<void> {
  if (useSession.getState().current?.account_id !== accountId) {
    await switchAccount(accountId);
    // The switch failed (its problem is on show already): nothing is opened on the wrong account.
    if (useSession.getState().current?.account_id !== accountId) return;
  }
  // The editor sits beside a task screen; the sync screen has none.
  if (useView.getState().view.kind === 'sync') navigate({ kind: 'list', scope: { kind: 'my-tasks' } });
  openTask(taskId);
  announce('Opened the task from a link.');
}

export function chooseAccount(accountId: string): void {
  const choice = useLinkChoice.getState().choice;
  useLinkChoice.setState({ choice: null });
  if (choice !== null) void openTaskInAccount(accountId, choice.taskId);
}

export function cancelAccountChoice(): void {
  useLinkChoice.setState({ choice: null });
}

async function act(request: LinkRequest): Promise<void> {
  switch (request.kind) {
    case 'refused':
      showNotice(request.problem);
      return;
    case 'choose-account':
      useLinkChoice.setState({ choice: { taskId: request.task_id, accountIds: request.account_ids } });
      return;
    case 'open-task':
      await openTaskInAccount(request.account_id, request.task_id);
      return;
  }
}

async function takeWaitingLink(): Promise<void> {
  try {
    const request = await invoke('link:take');
    if (request !== null) await act(request);
  } catch (error) {
    showProblem(error, 'Opening a link');
  }
}

/**
 * Takes the link waiting now (the one that launched the app) and every later
 * one; returns the function that stops. Start it after the session's first
 * account list: that list would otherwise close a task opened before it.
 */
export function followLinks(): () => void {
  const stop = subscribe('link:received', () => void takeWaitingLink());
  void takeWaitingLink();
  return stop;
}

/** "Copy link": the task's svc-desktop:// link on the clipboard (main writes it: the page has no clipboard). */
export async function copyTaskLink(taskId: string): Promise<void> {
  try {
    await invoke('task:copy-link', { task_id: taskId });
    announce('Link copied.');
  } catch (error) {
    showProblem(error, 'Copying the link');
  }
}

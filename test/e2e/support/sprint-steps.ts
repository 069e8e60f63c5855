// Steps on the sprint screens that several end-to-end tests take the same
// way a person does; apart from app-browser.ts, which opens and drives the app
// whatever the screen.
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningEmulator } from '../../../emulator/start';
import { callService } from './service-calls';

/** Creates a sprint from the sidebar's form: named `name`, lasting `weeks` weeks from the default start. */
export async function createSprintLasting(
  page: Page,
  teamName: string,
  name: string,
  weeks: number,
): Promise<void> {
  await page.getByRole('button', { name: `New sprint in ${teamName}` }).click();
  const form = page.getByTestId('sprint-form');
  await form.getByLabel('Name').fill(name);
  await form.getByRole('radio', { name: 'Lasts' }).check();
  await form.getByLabel('Length in weeks').fill(String(weeks));
  await form.getByRole('button', { name: 'Create sprint' }).click();
  await form.waitFor({ state: 'detached' });
}

/**
 * A sprint created on the server outside the app (by a teammate, say): named
 * `name`, lasting `weeks` weeks from `startDate`. The test fails unless it was (201). Its id.
 */
export async function sprintCreatedElsewhere(
  emulator: RunningEmulator,
  teamId: string,
  name: string,
  startDate: string,
  weeks: number,
): Promise<string> {
  const created = await callService(emulator, 'POST', `/v1/teams/${teamId}/sprints`, {
    body: { name, start_date: startDate, duration_weeks: weeks },
  });
  expect(created.status).toBe(201);
  return created.body.sprint_id as string;
}

// Steps on the sprint screens that several end-to-end tests take the same
// way a person does; apart from app-browser.ts, which opens and drives the app
// whatever the screen.
import type { Page } from 'playwright-core';

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

// @vitest-environment happy-dom
// A component whose code loads when first drawn: its code is asked for only
// then, the screen around it draws at once, and it shows once loaded.
import { act, render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { later } from './later';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

test('its code is asked for when first drawn, and the screen around it does not wait for it', async () => {
  let loads = 0;
  let loaded: (component: typeof Greeting) => void = () => undefined;
  const LaterGreeting = later(() => {
    loads += 1;
    return new Promise<typeof Greeting>((resolve) => {
      loaded = resolve;
    });
  });
  expect(loads).toBe(0);

  render(
    <main>
      <h1>Tasks</h1>
      <LaterGreeting name="Ada" />
    </main>,
  );
  expect(screen.getByRole('heading', { name: 'Tasks' })).toBeTruthy();
  expect(screen.queryByText('Hello Ada')).toBeNull();
  expect(loads).toBe(1);

  await act(async () => {
    loaded(Greeting);
    await Promise.resolve();
  });
  expect(await screen.findByText('Hello Ada')).toBeTruthy();
  expect(loads).toBe(1);
});

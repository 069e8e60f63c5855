// @vitest-environment happy-dom
// A part drawn after the first paint: the first render holds its placeholder
// and the screen around it; the part follows once a frame has gone by.
import { render, screen } from '@testing-library/react';
import { expect, test } from 'vitest';
import { AfterFirstPaint } from './after-first-paint';

test('the first render draws the placeholder, and the part replaces it after the next frame', async () => {
  let frames = 0;
  const countFrames = () => {
    frames += 1;
    requestAnimationFrame(countFrames);
  };
  requestAnimationFrame(countFrames);
  render(
    <main>
      <h1>Tasks</h1>
      <AfterFirstPaint placeholder={<nav aria-label="Workspace" />}>
        <nav aria-label="Workspace">
          <button type="button">Inbox</button>
        </nav>
      </AfterFirstPaint>
    </main>,
  );
  expect(screen.getByRole('heading', { name: 'Tasks' })).toBeTruthy();
  expect(screen.getByRole('navigation', { name: 'Workspace' })).toBeTruthy();
  expect(screen.queryByRole('button', { name: 'Inbox' })).toBeNull();

  await screen.findByRole('button', { name: 'Inbox' });
  expect(frames).toBeGreaterThanOrEqual(1);
});

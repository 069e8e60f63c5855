// @vitest-environment happy-dom
// The comment box's @-mentions as a person uses them from the keyboard: the
// members matching what follows `@` offered in a list, the arrows choosing,
// Enter or Tab taking one into the text, Escape closing the list alone, and
// Ctrl+Enter sending the comment only when no list is open.
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { MentionTextarea } from './mention-textarea';

afterEach(cleanup);

const usernames = ['ada', 'adam', 'grace', 'madeline'];

function Box({ onSubmit, onCancel }: { onSubmit: () => void; onCancel?: () => void }) {
  const [value, setValue] = useState('');
  return (
    <MentionTextarea
      label="Comment"
      value={value}
      onChange={setValue}
      onSubmit={onSubmit}
      {...(onCancel ? { onCancel } : {})}
      usernames={usernames}
    />
  );
}

function setUp(onCancel?: () => void) {
  const onSubmit = vi.fn();
  render(<Box onSubmit={onSubmit} {...(onCancel ? { onCancel } : {})} />);
  const box = screen.getByRole<HTMLTextAreaElement>('combobox', { name: 'Comment' });
  return { onSubmit, box };
}

function offered(): string[] {
  return screen.queryAllByRole('option').map((option) => option.textContent ?? '');
}

function activeOption(box: HTMLElement): string | null {
  const id = box.getAttribute('aria-activedescendant');
  return id === null ? null : (document.getElementById(id)?.textContent ?? null);
}

describe('MentionTextarea', () => {
  test('after @ the members matching the typed start are offered, names starting with it first', async () => {
    const user = userEvent.setup();
    const { box } = setUp();
    expect(box.getAttribute('aria-expanded')).toBe('false');
    await user.type(box, 'Thanks @ad');
    expect(box.getAttribute('aria-expanded')).toBe('true');
    expect(offered()).toEqual(['@ada', '@adam', '@madeline']);
    expect(activeOption(box)).toBe('@ada');

    // An address is not a mention: no list after a word's @.
    await user.clear(box);
    await user.type(box, 'mail me at x@ad');
    expect(box.getAttribute('aria-expanded')).toBe('false');
  });

  test('the arrows choose and Enter takes the chosen name into the text, the list then closed', async () => {
    const user = userEvent.setup();
    const { box, onSubmit } = setUp();
    await user.type(box, 'cc @ad');
    await user.keyboard('{ArrowDown}');
    expect(activeOption(box)).toBe('@adam');
    await user.keyboard('{ArrowUp}{ArrowUp}');
    // Up from the first wraps round to the last.
    expect(activeOption(box)).toBe('@madeline');
    await user.keyboard('{ArrowDown}{ArrowDown}{Enter}');

    expect(box.value).toBe('cc @adam ');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  test('Tab takes the name too, and a click on one takes it', async () => {
    const user = userEvent.setup();
    const { box } = setUp();
    await user.type(box, '@gr');
    await user.keyboard('{Tab}');
    expect(box.value).toBe('@grace ');
    expect(document.activeElement).toBe(box);

    await user.type(box, 'and @m');
    await user.click(screen.getByRole('option', { name: '@madeline' }));
    expect(box.value).toBe('@grace and @madeline ');
  });

  test('Escape with the list open closes the list, not the reply box', async () => {
    const user = userEvent.setup();
    const onCancel = vi.fn();
    const { box } = setUp(onCancel);
    await user.type(box, '@a');
    await user.keyboard('{Escape}');
    expect(box.getAttribute('aria-expanded')).toBe('false');
    expect(box.value).toBe('@a');
    expect(onCancel).not.toHaveBeenCalled();

    await user.keyboard('{Escape}');
    expect(onCancel).toHaveBeenCalledOnce();
  });

  test('Ctrl+Enter sends the comment; a plain Enter is a new line', async () => {
    const user = userEvent.setup();
    const { box, onSubmit } = setUp();
    await user.type(box, 'Looks good{Enter}to me');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(box.value).toBe('Looks good\nto me');
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(onSubmit).toHaveBeenCalledOnce();
  });
});

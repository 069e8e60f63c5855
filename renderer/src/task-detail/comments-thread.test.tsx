// @vitest-environment happy-dom
// A comment or reply being written is a draft kept by main: written once the
// box goes away (not per keystroke), back in its box when the thread opens
// again, a reply's box open with it; sent or discarded, it is dropped.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Draft } from '../../../ipc/draft-schemas';
import type { TaskActivity } from '../../../ipc/screen-schemas';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { CommentsThread } from './comments-thread';

const bridge = fakeBridgeEachTest();

const comment: TaskActivity['comments'][number] = {
  comment_id: 'cmt-1',
  task_id: 't-1',
  content: 'Can we ship Friday?',
  created_by: 'grace',
  created_at: '2026-03-01T10:00:00Z',
};

/** Main keeping drafts as the mirror does: the latest save per key, gone once discarded. */
function keepDraftsInMain(initial: Draft[] = []): Map<string, Draft> {
  const kept = new Map<string, Draft>();
  const slot = (d: { kind: string; task_id?: string; reply_to?: string }) =>
    `${d.kind}:${d.task_id ?? ''}:${d.reply_to ?? ''}`;
  for (const draft of initial) kept.set(slot(draft), draft);
  bridge.answer('drafts:list', () => [...kept.values()]);
  bridge.answer('drafts:save', (draft) => {
    kept.set(slot(draft), draft);
    return null;
  });
  bridge.answer('drafts:discard', (key) => {
    kept.delete(slot(key));
    return null;
  });
  bridge.answer('comment:create', () => ({ comment_id: 'local-c', op_id: 'op-1' }));
  return kept;
}

function renderThread() {
  return render(<CommentsThread taskId="t-1" comments={[comment]} cached />);
}

describe('comment drafts', () => {
  test('a comment typed is kept once the panel closes, in one write, and is back when it opens again', async () => {
    const user = userEvent.setup();
    const kept = keepDraftsInMain();
    const first = renderThread();
    await user.type(screen.getByRole('combobox', { name: 'New comment' }), 'Half a thought');
    expect(bridge.callsOf('drafts:save')).toEqual([]);
    // Closing writes what waits at once, without waiting for the pause in typing.
    first.unmount();
    expect(bridge.callsOf('drafts:save')).toHaveLength(1);
    expect([...kept.values()]).toEqual([{ kind: 'comment', task_id: 't-1', text: 'Half a thought' }]);

    renderThread();
    await waitFor(() =>
      expect(screen.getByRole<HTMLTextAreaElement>('combobox', { name: 'New comment' }).value).toBe(
        'Half a thought',
      ),
    );
    expect(screen.getByText('Draft: kept until you send or discard it.')).toBeTruthy();
  });

  test('a reply drafted before opens its box with the text; sent, the draft is dropped', async () => {
    const user = userEvent.setup();
    const kept = keepDraftsInMain([
      { kind: 'reply', task_id: 't-1', reply_to: 'cmt-1', text: 'Friday works' },
    ]);
    renderThread();
    const box = await screen.findByRole<HTMLTextAreaElement>('combobox', { name: 'Reply to grace' });
    await waitFor(() => expect(box.value).toBe('Friday works'));
    // The link that opens the box is also 'Reply': the form's own button is the one that sends.
    await user.click(within(box.closest('form') as HTMLElement).getByRole('button', { name: 'Reply' }));
    await waitFor(() => expect(kept.size).toBe(0));
    expect(bridge.callsOf('comment:create')).toContainEqual({
      task_id: 't-1',
      content: 'Friday works',
      parent_comment_id: 'cmt-1',
    });
  });

  test('Discard draft empties the box and drops what was kept', async () => {
    const user = userEvent.setup();
    const kept = keepDraftsInMain([{ kind: 'comment', task_id: 't-1', text: 'Never mind' }]);
    renderThread();
    await waitFor(() =>
      expect(screen.getByRole<HTMLTextAreaElement>('combobox', { name: 'New comment' }).value).toBe(
        'Never mind',
      ),
    );
    await user.click(screen.getByRole('button', { name: 'Discard draft' }));
    expect(screen.getByRole<HTMLTextAreaElement>('combobox', { name: 'New comment' }).value).toBe('');
    await waitFor(() => expect(kept.size).toBe(0));
  });
});

// @vitest-environment happy-dom
// The saved views as the first screen reads them: the sidebar and the list's
// Save view button both show them, and main is asked once as the screen
// opens; a change of the views later is read again, and both show it.
import { act, render, screen } from '@testing-library/react';
import { expect, test, vi } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { savedView } from '../testing/screen-fixtures';
import { useViewSidebar } from './use-view-sidebar';

const bridge = fakeBridgeEachTest();

function Names({ label }: { label: string }) {
  const sidebar = useViewSidebar();
  return (
    <p aria-label={label}>{sidebar === null ? 'loading' : sidebar.views.map((v) => v.name).join(', ')}</p>
  );
}

test('two parts of one screen reading the saved views ask main once, and both follow a change', async () => {
  let views = [savedView('v-1', 'Mine', null)];
  bridge.answer('views:sidebar', () => ({ views, pins: [] }));
  render(
    <>
      <Names label="sidebar" />
      <Names label="save button" />
    </>,
  );
  await vi.waitFor(() => expect(screen.getByLabelText('sidebar').textContent).toBe('Mine'));
  expect(screen.getByLabelText('save button').textContent).toBe('Mine');
  expect(bridge.callsOf('views:sidebar')).toHaveLength(1);

  views = [savedView('v-1', 'Mine', null), savedView('v-2', 'Later', null)];
  act(() =>
    bridge.emit('mirror:changed', { account_id: 'a', collections: ['views'], task_ids: null, remapped: [] }),
  );
  await vi.waitFor(() => expect(screen.getByLabelText('sidebar').textContent).toBe('Mine, Later'));
  expect(screen.getByLabelText('save button').textContent).toBe('Mine, Later');
});

// @vitest-environment happy-dom
// The attachments' space on this computer beside the other settings: what the
// account uses of it and the size, which a person changes by choosing another.
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { AttachmentCacheSetting } from './attachment-cache-setting';

const bridge = fakeBridgeEachTest();
const MB = 1024 ** 2;

test('says how much of the space is used and saves a size chosen', async () => {
  const user = userEvent.setup();
  bridge.answer('attachment-cache:get', () => ({ limit_bytes: 1024 ** 3, used_bytes: 300 * MB }));
  bridge.answer('attachment-cache:set', ({ limit_bytes }) => ({ limit_bytes, used_bytes: 300 * MB }));
  render(<AttachmentCacheSetting />);
  expect((await screen.findByTestId('attachment-cache-use')).textContent).toBe('300.0 MB of 1.0 GB used');
  const size = screen.getByRole('combobox', { name: /Space for attachments/ });
  expect((size as HTMLSelectElement).value).toBe(String(1024 ** 3));

  await user.selectOptions(size, '512.0 MB');
  expect(bridge.callsOf('attachment-cache:set')).toEqual([{ limit_bytes: 512 * MB }]);
  expect((await screen.findByText('300.0 MB of 512.0 MB used')).textContent).toBeTruthy();
  await user.selectOptions(size, 'None (open attachments online only)');
  expect(bridge.callsOf('attachment-cache:set').at(-1)).toEqual({ limit_bytes: 0 });
});

test('a size set another way (in settings.json) is shown and offered as it is', async () => {
  bridge.answer('attachment-cache:get', () => ({ limit_bytes: 3 * 1024 ** 3, used_bytes: 0 }));
  render(<AttachmentCacheSetting />);
  expect((await screen.findByTestId('attachment-cache-use')).textContent).toBe('0 B of 3.0 GB used');
  const size = screen.getByRole<HTMLSelectElement>('combobox', { name: /Space for attachments/ });
  expect(size.value).toBe(String(3 * 1024 ** 3));
  expect([...size.options].map((o) => o.textContent)).toContain('3.0 GB');
});

import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import type { UpdateStatusView } from '../../../ipc/update-schemas';
import { UpdateLine } from './update-notice';

const nothing = () => undefined;
const quiet: UpdateStatusView = {
  state: 'idle',
  version: null,
  percent: null,
  message: null,
  reason: null,
  retry_at: null,
  can_restart: false,
};
const line = (status: Partial<UpdateStatusView>) =>
  renderToStaticMarkup(<UpdateLine status={{ ...quiet, ...status }} onRestart={nothing} />);

describe('the status bar update line', () => {
  test('a downloaded update is a "Restart to update" button', () => {
    const html = line({
      state: 'ready',
      version: '0.3.0',
      message: 'Restart to update to 0.3.0',
      can_restart: true,
    });
    expect(html).toMatch(/^<button /);
    expect(html).toContain('>Restart to update to 0.3.0</button>');
  });

  test('a download in progress and a restart waiting for edits are said, not offered', () => {
    expect(
      line({
        state: 'downloading',
        version: '0.3.0',
        percent: 12,
        message: 'Downloading update 0.3.0 (12%)',
      }),
    ).toBe('<span class="muted" data-testid="update">Downloading update 0.3.0 (12%)</span>');
    const waiting = 'Sending 2 changes, then restarting to update to 0.3.0';
    expect(line({ state: 'waiting', version: '0.3.0', message: waiting })).toContain(`>${waiting}</span>`);
  });

  test('a failure says so, with the reason in its tooltip', () => {
    const message =
      'The downloaded update did not match its checksum and was deleted: sha512 checksum mismatch.';
    const html = line({ state: 'failed', reason: 'checksum-mismatch', message });
    expect(html).toContain('>Update failed</span>');
    expect(html).toContain(`title="${message}"`);
    expect(line({ state: 'failed', reason: 'feed-refused', message: 'Updates are off, …' })).toContain(
      '>Updates are off</span>',
    );
  });

  test('an update whose signature did not verify is named as not trusted, not as a failed download', () => {
    const message = 'The update feed is not signed by this app’s publisher; nothing was downloaded.';
    const html = line({ state: 'failed', reason: 'unsigned-feed', message });
    expect(html).toContain('>Update not trusted</span>');
    expect(html).toContain(`title="${message}"`);
  });

  test('nothing is shown without an update', () => {
    expect(line({})).toBe('');
    expect(line({ state: 'checking' })).toBe('');
    expect(renderToStaticMarkup(<UpdateLine status={null} onRestart={nothing} />)).toBe('');
  });
});

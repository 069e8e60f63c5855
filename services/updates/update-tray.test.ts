import { expect, test } from 'vitest';
import { trayModel } from '../notify/tray-model';
import { updateStatusView } from './update-policy';
import { withUpdateLine } from './update-tray';

const base = trayModel({ appName: 'svc-desktop', accounts: [], paused: false });

test("a downloaded update is the tray menu's first line, an action that restarts to update", () => {
  const model = withUpdateLine(base, updateStatusView({ kind: 'ready', version: '0.3.0' }));
  expect(model.menu[0]).toEqual({
    kind: 'action',
    label: 'Restart to update to 0.3.0',
    action: { type: 'restart-to-update' },
    enabled: true,
  });
  expect(model.menu.slice(2)).toEqual(base.menu);
  expect(model.tooltip).toBe('svc-desktop — Restart to update to 0.3.0');
});

test('a download in progress or a failure is shown as a line that does nothing', () => {
  for (const phase of [
    { kind: 'downloading', version: '0.3.0', percent: 50 },
    { kind: 'failed', reason: 'unreachable', message: 'connect ECONNREFUSED', retryAt: 0 },
  ] as const) {
    const model = withUpdateLine(base, updateStatusView(phase));
    expect(model.menu[0]).toMatchObject({ kind: 'action', enabled: false });
    expect(model.tooltip).toBe(base.tooltip);
  }
});

test('with nothing to tell, the tray is left as it is', () => {
  expect(withUpdateLine(base, updateStatusView({ kind: 'idle' }))).toBe(base);
  expect(withUpdateLine(base, updateStatusView({ kind: 'checking' }))).toBe(base);
  expect(withUpdateLine(base, null)).toBe(base);
});

import { expect, test } from 'vitest';
import { LinkInbox } from './link-inbox';

test('links that come before the app can act are kept, then delivered in order', () => {
  const inbox = new LinkInbox();
  inbox.receive('svc-desktop://task/tsk_1');
  inbox.receive('svc-desktop://task/tsk_2');
  const delivered: string[] = [];
  inbox.deliverTo((raw) => delivered.push(raw));
  expect(delivered).toEqual(['svc-desktop://task/tsk_1', 'svc-desktop://task/tsk_2']);
  inbox.receive('svc-desktop://task/tsk_3');
  expect(delivered).toEqual([
    'svc-desktop://task/tsk_1',
    'svc-desktop://task/tsk_2',
    'svc-desktop://task/tsk_3',
  ]);
});

test('no link (a launch without one) delivers nothing', () => {
  const inbox = new LinkInbox();
  inbox.receive(null);
  inbox.receive(undefined);
  inbox.receive('');
  const delivered: string[] = [];
  inbox.deliverTo((raw) => delivered.push(raw));
  expect(delivered).toEqual([]);
});

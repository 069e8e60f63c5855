// The pace of an upload's progress events, on a manual clock: the start and
// the end at once, at most one telling an interval between them, and the
// bytes sent meanwhile told when the interval is over (a stalled upload shows
// where it stands).
import { expect, test } from 'vitest';
import { ManualApiClock } from '../api/clock';
import { throttledProgress } from './upload-progress';

test('the start and the end are told at once, between them at most one telling an interval, the latest one', async () => {
  const clock = new ManualApiClock(0);
  const told: [number, number][] = [];
  const progress = throttledProgress((sent, total) => told.push([sent, total]), clock, 100);
  progress(0, 1000);
  progress(100, 1000);
  progress(200, 1000);
  expect(told).toEqual([[0, 1000]]);
  await clock.advance(99);
  expect(told).toEqual([[0, 1000]]);
  await clock.advance(1);
  expect(told).toEqual([
    [0, 1000],
    [200, 1000],
  ]);
  await clock.advance(150);
  progress(300, 1000);
  expect(told.at(-1)).toEqual([300, 1000]);
  progress(400, 1000);
  progress(1000, 1000);
  expect(told.slice(2)).toEqual([
    [300, 1000],
    [1000, 1000],
  ]);
  // The telling the end made unneeded is not made later.
  await clock.advance(1000);
  expect(told).toHaveLength(4);
  expect(clock.pending).toBe(0);
});

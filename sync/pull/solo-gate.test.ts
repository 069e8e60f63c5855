// The gate a restarted list walks alone through: ordinary requests wait while
// it walks (or waits to), it waits for the requests already out, and two lists
// walking alone take turns.
import { describe, expect, test } from 'vitest';
import { SoloGate } from './solo-gate';

/** A request that ends when told, recording when it ran. */
function pending(log: string[], name: string): { run: () => Promise<void>; end: () => void } {
  let end: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (end = resolve));
  return {
    run: async () => {
      log.push(`${name} start`);
      await done;
      log.push(`${name} end`);
    },
    end: () => end(),
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('a list walking alone', () => {
  test('waits for the requests already out, and holds back new ones until it is done', async () => {
    const gate = new SoloGate();
    const log: string[] = [];
    const before = pending(log, 'other request');
    const solo = pending(log, 'solo walk');
    const after = pending(log, 'later request');
    const outBefore = gate.shared(before.run);
    await turn();
    const walking = gate.alone(solo.run);
    const outAfter = gate.shared(after.run);
    await turn();
    expect(log).toEqual(['other request start']);
    before.end();
    await outBefore;
    await turn();
    expect(log).toEqual(['other request start', 'other request end', 'solo walk start']);
    solo.end();
    await walking;
    await turn();
    after.end();
    await outAfter;
    expect(log).toEqual([
      'other request start',
      'other request end',
      'solo walk start',
      'solo walk end',
      'later request start',
      'later request end',
    ]);
  });

  test('two lists walking alone take turns', async () => {
    const gate = new SoloGate();
    const log: string[] = [];
    const first = pending(log, 'first');
    const second = pending(log, 'second');
    const one = gate.alone(first.run);
    const two = gate.alone(second.run);
    await turn();
    expect(log).toEqual(['first start']);
    first.end();
    await one;
    await turn();
    second.end();
    await two;
    expect(log).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  test('ordinary requests go side by side while no list walks alone', async () => {
    const gate = new SoloGate();
    const log: string[] = [];
    const a = pending(log, 'a');
    const b = pending(log, 'b');
    const both = Promise.all([gate.shared(a.run), gate.shared(b.run)]);
    await turn();
    expect(log).toEqual(['a start', 'b start']);
    a.end();
    b.end();
    await both;
  });
});

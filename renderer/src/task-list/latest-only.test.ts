import { describe, expect, test } from 'vitest';
import { LatestOnly, SUPERSEDED } from './latest-only';

/** A call that answers when told to, recording that it was asked. */
function pending(name: string, asked: string[]) {
  let answer: (value: string) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const ask = () => {
    asked.push(name);
    return new Promise<string>((resolve, reject) => {
      answer = resolve;
      fail = reject;
    });
  };
  return { ask, answer: () => answer(name), fail: (error: Error) => fail(error) };
}

describe('the list query lane', () => {
  test('keystrokes typed while a query is in flight: only the newest is asked next, the others answer SUPERSEDED', async () => {
    const asked: string[] = [];
    const lane = new LatestOnly();
    const [m, mi, mig, migr] = ['m', 'mi', 'mig', 'migr'].map((name) => pending(name, asked));
    const answers = [m, mi, mig, migr].map((call) => lane.run(call!.ask));
    expect(asked).toEqual(['m']);
    m!.answer();
    await expect(answers[0]).resolves.toBe('m');
    await expect(answers[1]).resolves.toBe(SUPERSEDED);
    await expect(answers[2]).resolves.toBe(SUPERSEDED);
    await Promise.resolve();
    expect(asked).toEqual(['m', 'migr']);
    migr!.answer();
    await expect(answers[3]).resolves.toBe('migr');
  });

  test('a failed call passes its error on and lets the next one run', async () => {
    const asked: string[] = [];
    const lane = new LatestOnly();
    const first = pending('a', asked);
    const second = pending('b', asked);
    const failed = lane.run(first.ask);
    const next = lane.run(second.ask);
    first.fail(new Error('offline'));
    await expect(failed).rejects.toThrow('offline');
    await Promise.resolve();
    expect(asked).toEqual(['a', 'b']);
    second.answer();
    await expect(next).resolves.toBe('b');
  });

  test('with nothing in flight a call is asked at once', async () => {
    const asked: string[] = [];
    const lane = new LatestOnly();
    const only = pending('x', asked);
    const answer = lane.run(only.ask);
    expect(asked).toEqual(['x']);
    only.answer();
    await expect(answer).resolves.toBe('x');
  });
});

// @vitest-environment happy-dom
// What the page does before the first screen: it asks main for the session and
// the first rows before it loads the locale's data for dates (the first Intl
// formatter built, tens of ms of the page's thread on a 2-core machine), and
// loads it while main answers, in a task of its own, so that neither the calls
// nor the first rows drawn wait for it.
import { expect, test, vi } from 'vitest';
import { fakeBridgeEachTest } from '../testing/fake-bridge';

const bridge = fakeBridgeEachTest();

test("the first screen's modules build no date formatter as they load", async () => {
  const built = vi.spyOn(Intl, 'DateTimeFormat');
  try {
    const [{ App }, { startApp }] = await Promise.all([import('./app'), import('./start-app')]);
    expect([typeof App, typeof startApp]).toEqual(['function', 'function']);
    expect(built).not.toHaveBeenCalled();
  } finally {
    built.mockRestore();
  }
});

test('startApp asks main for the first rows and the session first, then builds the rows’ date formatters in a task of its own', async () => {
  const { startApp } = await import('./start-app');
  const built = vi.spyOn(Intl, 'DateTimeFormat');
  const stop = startApp();
  try {
    expect(bridge.calls.map((call) => call.channel)).toEqual(
      expect.arrayContaining(['tasks:query', 'accounts:list']),
    );
    expect(built).not.toHaveBeenCalled();
    await new Promise((done) => setTimeout(done, 0));
    expect(built).toHaveBeenCalled();
  } finally {
    stop();
    built.mockRestore();
  }
});

/** A call main answers when the test says. */
function held<T>(): { promise: Promise<T>; answer: (value: T) => void; fail: (error: Error) => void } {
  let answer: (value: T) => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const promise = new Promise<T>((resolve, reject) => {
    answer = resolve;
    fail = reject;
  });
  return { promise, answer, fail };
}

/** Whether `promise` has settled once the calls' answers have been handed on. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await new Promise((next) => setTimeout(next, 0));
  return done;
}

type Accounts = Awaited<ReturnType<typeof window.svc.invoke<'accounts:list'>>>;
type FirstPage = Awaited<ReturnType<typeof window.svc.invoke<'tasks:query'>>>;

function heldOpening() {
  const accounts = held<Accounts>();
  const firstPage = held<FirstPage>();
  bridge
    .answer('accounts:list', () => accounts.promise)
    .answer('tasks:query', () => firstPage.promise)
    .answer('settings:get', () => ({ theme: 'system' }) as never)
    .answer('accounts:secret-storage', () => ({ persistence: 'keychain' }) as never);
  return { accounts, firstPage };
}

test.each(['the session', 'the first rows'])(
  "the first render waits for main's answers to the session and the first rows, %s answered first",
  async (first) => {
    const { startApp, openingAnswered } = await import('./start-app');
    const { accounts, firstPage } = heldOpening();
    const answers = [
      () => accounts.answer({ accounts: [], current: null }),
      () => firstPage.answer({ rows: [], next: null, skipped: 0 } as unknown as FirstPage),
    ];
    if (first === 'the first rows') answers.reverse();
    const stop = startApp();
    try {
      const answered = openingAnswered(60_000);
      expect(await settled(answered)).toBe(false);
      answers[0]?.();
      expect(await settled(answered)).toBe(false);
      answers[1]?.();
      expect(await settled(answered)).toBe(true);
    } finally {
      stop();
    }
  },
);

test('a first page main fails still lets the first render go (the list asks again and shows the problem)', async () => {
  const { startApp, openingAnswered } = await import('./start-app');
  const { accounts, firstPage } = heldOpening();
  const stop = startApp();
  try {
    const answered = openingAnswered(60_000);
    accounts.answer({ accounts: [], current: null });
    firstPage.fail(new Error('main is closing'));
    expect(await settled(answered)).toBe(true);
  } finally {
    stop();
  }
});

test('a main slow to answer (its saved tasks upgrading) has the first render drawn at the deadline: the splash', async () => {
  const { startApp, openingAnswered } = await import('./start-app');
  heldOpening();
  const stop = startApp();
  try {
    const answered = openingAnswered(20);
    expect(await settled(answered)).toBe(false);
    await new Promise((later) => setTimeout(later, 40));
    expect(await settled(answered)).toBe(true);
  } finally {
    stop();
  }
});

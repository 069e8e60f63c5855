// A screen's read through the bridge as React state: what the mirror answered
// for the input on show (never an earlier input's, unless asked to keep it),
// the read's failure, and a way to read again. The bookkeeping is startRead's.
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { InvokeArgs, InvokeChannel, InvokeInput, InvokeOutput } from '../../../ipc/contract';
import { invoke } from '../bridge/svc';
import { startRead } from './bridge-read';
import type { ReloadOn } from './follow-changes';

export interface BridgeReadOptions<C extends InvokeChannel> {
  reloadOn?: ReloadOn;
  /** The input of a reload where it differs from the first read's (activity fetches from the server only once). */
  reloadInput?: InvokeInput<C>;
  /** Told of a failed read, unless its answer came after the screen moved on. */
  onError?: (error: unknown) => void;
  /** Shows the previous input's answer until the new input's arrives (a temporary id replaced by the server's). */
  keepPrevious?: boolean;
  /** The answer to keep when a new one arrives (the one on show, so what the person reads does not move). */
  share?: (previous: InvokeOutput<C>, next: InvokeOutput<C>) => InvokeOutput<C>;
  /**
   * Reads of this channel and input asked in the same task share one call (several parts of
   * one screen read it, and a commit runs their effects together): nothing can change between
   * them, and main answers once.
   */
  sameTask?: boolean;
}

/** The calls asked in this task by reads with `sameTask`, by channel and input. */
const callsThisTask = new Map<string, Promise<unknown>>();

function invokeOncePerTask<C extends InvokeChannel>(
  channel: C,
  key: string,
  args: InvokeArgs<C>,
): Promise<InvokeOutput<C>> {
  const slot = `${channel} ${key}`;
  let call = callsThisTask.get(slot) as Promise<InvokeOutput<C>> | undefined;
  if (call === undefined) {
    call = invoke(channel, ...args);
    callsThisTask.set(slot, call);
    // Microtasks run once the task ends: a read in a later task (a reload) calls afresh.
    queueMicrotask(() => callsThisTask.delete(slot));
  }
  return call;
}

export interface BridgeRead<T> {
  /** The answer for the input on show; null while it is read for the first time, or when there is no input. */
  data: T | null;
  /** The last read's failure for the input on show; null once a later read answered. */
  error: unknown;
  /** No answer for the input on show yet (also after a failure). */
  loading: boolean;
  /** The number of the read `data` answers (reads are counted from 1 over the hook's life). */
  answered: number;
  /** How many reads have been asked for so far. */
  asked: () => number;
  /** Reads again now, dropping any answer still on its way. */
  reload: () => void;
  /** Shows `value` as the answer until the next read answers (an edit's answer, before the mirror's). */
  set: (value: T) => void;
}

interface Answer<T> {
  key: string;
  value: T;
  number: number;
}

/** Reads `channel` with `input` (null: nothing to read yet) and keeps it current as `options.reloadOn` says. */
export function useBridgeRead<C extends InvokeChannel>(
  channel: C,
  input: InvokeInput<C> | null,
  options: BridgeReadOptions<C> = {},
): BridgeRead<InvokeOutput<C>> {
  const key = input === null ? null : (JSON.stringify(input) ?? '');
  const [answer, setAnswer] = useState<Answer<InvokeOutput<C>> | null>(null);
  const [failure, setFailure] = useState<{ key: string; error: unknown } | null>(null);
  const [reloads, setReloads] = useState(0);
  const asked = useRef(0);
  // The latest options and input, read when a read starts: callers pass fresh closures each render.
  const latest = useRef({ input, options });
  // Layout effects run before the read's effect, so a read starting in this commit sees this render's.
  useLayoutEffect(() => {
    latest.current = { input, options };
  });

  useEffect(() => {
    if (key === null) return;
    const { input: first, options: opened } = latest.current;
    return startRead({
      read: (again) => {
        asked.current += 1;
        const number = asked.current;
        const sent = again && opened.reloadInput !== undefined ? opened.reloadInput : first;
        const args = (sent === undefined ? [] : [sent]) as InvokeArgs<C>;
        const call =
          opened.sameTask === true
            ? invokeOncePerTask(channel, JSON.stringify(sent) ?? '', args)
            : invoke(channel, ...args);
        return call.then((value) => ({ value, number }));
      },
      reloadOn: opened.reloadOn,
      onValue: ({ value, number }) => {
        const { share } = latest.current.options;
        setAnswer((previous) => ({
          key,
          value: share !== undefined && previous !== null ? share(previous.value, value) : value,
          number,
        }));
        setFailure(null);
      },
      onError: (error) => {
        setFailure({ key, error });
        latest.current.options.onError?.(error);
      },
    });
  }, [channel, key, reloads]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const readsAsked = useCallback(() => asked.current, []);
  const set = useCallback(
    (value: InvokeOutput<C>) => {
      if (key !== null) setAnswer((previous) => ({ key, value, number: previous?.number ?? 0 }));
    },
    [key],
  );

  const shown = key !== null && answer !== null && (answer.key === key || options.keepPrevious === true);
  return {
    data: shown ? answer.value : null,
    error: key !== null && failure?.key === key ? failure.error : null,
    loading: key !== null && answer?.key !== key,
    answered: shown ? answer.number : 0,
    asked: readsAsked,
    reload,
    set,
  };
}

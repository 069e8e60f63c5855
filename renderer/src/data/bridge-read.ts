// One read through the bridge kept current: asked at once, asked again as its
// `ReloadOn` says, and silent once stopped (the screen went, or asks for
// something else), so an answer that arrives late never lands on the wrong screen.
import { followChanges, type Listen, type ReloadOn } from './follow-changes';

export interface ReadHandlers<T> {
  /** Reads once; `again` is false for the first read and true for each reload. */
  read: (again: boolean) => Promise<T>;
  reloadOn?: ReloadOn | undefined;
  onValue: (value: T) => void;
  onError: (error: unknown) => void;
  listen?: Listen;
}

/** Starts the read; returns the stop, after which no answer is passed on. */
export function startRead<T>({ read, reloadOn, onValue, onError, listen }: ReadHandlers<T>): () => void {
  let stopped = false;
  const load = (again: boolean) => {
    read(again)
      .then((value) => {
        if (!stopped) onValue(value);
      })
      .catch((error: unknown) => {
        if (!stopped) onError(error);
      });
  };
  load(false);
  const unfollow = reloadOn === undefined ? null : followChanges(reloadOn, () => load(true), listen);
  return () => {
    stopped = true;
    unfollow?.();
  };
}

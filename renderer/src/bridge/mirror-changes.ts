// A screen's data read again when the mirror changes what it shows: once for
// a burst of changes (a sync landing many rows), only for its collections.
import { subscribe } from './svc';

/** Calls `reload` `delayMs` after a change of any of `collections` (later ones meanwhile fold in); returns the stop. */
export function reloadOnMirrorChanges(
  collections: readonly string[],
  reload: () => void,
  delayMs = 150,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const stop = subscribe('mirror:changed', (change) => {
    if (timer !== null || !change.collections.some((c) => collections.includes(c))) return;
    timer = setTimeout(() => {
      timer = null;
      reload();
    }, delayMs);
  });
  return () => {
    stop();
    if (timer !== null) clearTimeout(timer);
  };
}

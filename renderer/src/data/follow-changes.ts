// When what a screen shows is read again: on the mirror's changes of the
// collections it shows (once for a burst of them, a sync landing many rows),
// and on sync status events where it shows what waits to be sent.
import type { MirrorChanged } from '../../../ipc/screen-schemas';
import { subscribe } from '../bridge/svc';

export interface ReloadOn {
  /** The mirror's collections whose change reloads; left out, any change does. */
  collections?: readonly string[];
  /** A finer test of a change than its collections (one task's id among those changed). */
  when?: (change: MirrorChanged) => boolean;
  /** `sync:status-changed` reloads too (a change sent, refused or held moves the outbox without the mirror). */
  syncStatus?: boolean;
  /** Changes within this many ms of the first reload once; 0 reloads at each change, at once. */
  delayMs?: number;
}

/** How events are listened to: `subscribe` of the bridge, or a test's own. */
export type Listen = typeof subscribe;

/** A burst of changes reloads this long after its first, unless the reader says otherwise. */
export const RELOAD_DELAY_MS = 150;

/** Calls `reload` as `on` says; returns the stop (which also drops a reload still waiting). */
export function followChanges(on: ReloadOn, reload: () => void, listen: Listen = subscribe): () => void {
  const delayMs = on.delayMs ?? RELOAD_DELAY_MS;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const soon = () => {
    if (delayMs === 0) {
      reload();
      return;
    }
    timer ??= setTimeout(() => {
      timer = null;
      reload();
    }, delayMs);
  };
  const concerns = (change: MirrorChanged) =>
    (on.collections === undefined || change.collections.some((c) => on.collections?.includes(c))) &&
    (on.when === undefined || on.when(change));
  const stops = [
    listen('mirror:changed', (change) => {
      if (concerns(change)) soon();
    }),
  ];
  if (on.syncStatus === true) stops.push(listen('sync:status-changed', soon));
  return () => {
    for (const stop of stops) stop();
    if (timer !== null) clearTimeout(timer);
  };
}

// Temporary ids replaced by the server's (`mirror:changed`'s `remapped`): a
// screen showing one follows it, and a list keeps each item's first key so its
// element (and a form open in it) stays.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { MirrorChanged } from '../../../ipc/screen-schemas';
import { subscribe } from '../bridge/svc';

export type Remap = MirrorChanged['remapped'][number];

/** Calls `follow` with each change's remaps (none: not called); the latest `follow` is the one called. */
export function useRemaps(follow: (remaps: readonly Remap[]) => void): void {
  const latest = useRef(follow);
  useLayoutEffect(() => {
    latest.current = follow;
  });
  useEffect(
    () =>
      subscribe('mirror:changed', (change) => {
        if (change.remapped.length > 0) latest.current(change.remapped);
      }),
    [],
  );
}

/** The React key of an item: the temporary id it was first shown under, after the server's replaced it. */
export function useStableKeys(): (id: string) => string {
  const [firstIds, setFirstIds] = useState<ReadonlyMap<string, string>>(() => new Map());
  useRemaps((remaps) =>
    setFirstIds((known) => {
      const next = new Map(known);
      for (const { from, to } of remaps) next.set(to, known.get(from) ?? from);
      return next;
    }),
  );
  return (id) => firstIds.get(id) ?? id;
}

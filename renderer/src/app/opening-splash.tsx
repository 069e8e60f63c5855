// The first screen, while main opens the accounts: "Opening…", or, when an
// account's saved tasks were written by an older version and are being
// upgraded (seconds with a large organization), what is happening and how far.
import { useEffect, useState } from 'react';
import type { Opening } from '../../../ipc/contract';
import { invoke, subscribe } from '../bridge/svc';

export function OpeningSplash() {
  const [opening, setOpening] = useState<Opening>(null);
  useEffect(() => {
    let told = false;
    const stop = subscribe('app:opening-changed', (next) => {
      told = true;
      setOpening(next);
    });
    // Asked once, for a step already under way when the page loaded; an event since is newer.
    invoke('app:opening').then(
      (now) => {
        if (!told) setOpening(now);
      },
      // A host that does not upgrade (the browser host) leaves the plain splash.
      () => undefined,
    );
    return stop;
  }, []);
  return (
    <div className="splash" role="status" aria-live="polite">
      {opening === null
        ? 'Opening…'
        : `Upgrading your saved tasks for this version of the app (step ${Math.min(opening.applied + 1, opening.total)} of ${opening.total})…`}
    </div>
  );
}

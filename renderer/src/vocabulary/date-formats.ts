// Date formatters built on their first use and kept. The page's first Intl
// formatter loads the locale's data: 46-150 ms of the page's thread in a fresh
// page on a loaded 2-core machine. Built as the modules were evaluated, that ran
// before the first screen asked main for its rows; built once the first calls
// were on their way, it still ran on the thread that draws them. Now a worker
// loads that data while the page starts (loadLocaleDataAside), and the page
// builds its formatters once it is loaded, in about a millisecond each.

/** A formatter built on the first call, the same one on every call after. */
export type DateFormat = () => Intl.DateTimeFormat;

export function dateFormat(options: Intl.DateTimeFormatOptions): DateFormat {
  let made: Intl.DateTimeFormat | null = null;
  return () => (made ??= new Intl.DateTimeFormat(undefined, options));
}

/** Builds `formats` now (the first loads the locale's data), so that the first screen drawn does not. */
export function loadDateFormats(formats: readonly DateFormat[]): void {
  for (const format of formats) format();
}

let localeData: Promise<void> | null = null;

/**
 * Loads the locale's data in a worker (locale-data-worker.ts), once: started
 * first thing on the page (locale-data-start.ts), it runs while the page's
 * modules are evaluated and main answers the first calls. Settles when it is
 * loaded, or at once where no worker starts (one refused, or none in this
 * page): the first formatter then loads it on the page's thread, as before.
 */
export function loadLocaleDataAside(): Promise<void> {
  localeData ??= new Promise<void>((settle) => {
    try {
      const worker = new Worker(new URL('./locale-data-worker.ts', import.meta.url), { type: 'module' });
      const done = () => {
        worker.terminate();
        settle();
      };
      worker.addEventListener('message', done, { once: true });
      worker.addEventListener('error', done, { once: true });
    } catch {
      settle();
    }
  });
  return localeData;
}

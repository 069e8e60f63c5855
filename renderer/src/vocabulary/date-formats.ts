// Date formatters built on their first use and kept. The page's first Intl
// formatter loads the locale's data: 46-150 ms of the page's thread in a fresh
// page on a loaded 2-core machine. Built as the modules were evaluated, that ran
// before the first screen asked main for its rows; now the app starts it once
// its first calls are on their way (loadDateFormats), while main answers them.

/** A formatter built on the first call, the same one on every call after. */
export type DateFormat = () => Intl.DateTimeFormat;

/** Formatters built so far in this page (the tests check when that happens). */
let built = 0;

export function dateFormat(options: Intl.DateTimeFormatOptions): DateFormat {
  let made: Intl.DateTimeFormat | null = null;
  return () => {
    if (made === null) {
      made = new Intl.DateTimeFormat(undefined, options);
      built += 1;
    }
    return made;
  };
}

/** How many formatters this page has built. */
export function dateFormatsBuilt(): number {
  return built;
}

/** Builds `formats` now (the first loads the locale's data), so that the first screen drawn does not. */
export function loadDateFormats(formats: readonly DateFormat[]): void {
  for (const format of formats) format();
}

// Date formatters built on their first use and kept. The page's first Intl
// formatter loads the locale's data: 46-150 ms of the page's thread in a fresh
// page on a loaded 2-core machine. Built as the modules were evaluated, that ran
// before the first screen asked main for its rows; now the app starts it once
// its first calls are on their way (loadDateFormats), while main answers them.

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

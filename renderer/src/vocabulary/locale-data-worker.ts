// The locale's data, loaded off the page's thread. A process's first Intl
// formatter loads ICU's data for the locale: 50-90 ms of the thread that asks
// first (a fresh page in Chromium here). That data belongs to the process, not
// to the thread: once a worker of the page has built one, each formatter the
// page builds takes about a millisecond. So the page starts this worker first
// thing (locale-data-start.ts) and builds its own formatters when it answers.
new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(0);
new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(0);
new Intl.NumberFormat().format(0);
// The DOM's types know window.postMessage only; a worker's takes the message alone.
(globalThis as unknown as { postMessage(message: string): void }).postMessage('loaded');

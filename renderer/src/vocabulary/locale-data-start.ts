// Imported first by the page's entry (main.tsx), before the modules that take
// most of the page's start to evaluate: the worker that loads the locale's data
// (date-formats.ts) starts as early as the page can start it, and has until the
// first rows are drawn to finish.
import { loadLocaleDataAside } from './date-formats';

void loadLocaleDataAside();

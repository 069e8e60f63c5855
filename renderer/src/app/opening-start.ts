// Imported by the page's entry (main.tsx) right after the locale's worker
// starts, before React's DOM renderer and the screens, which take most of the
// page's start to evaluate (60-70 ms of its thread traced at 100 000 tasks): the
// session's reads and the first rows' query go to main while those evaluate,
// and have come back by the time the first render asks for them. Started later
// (from the entry's own code, after every import), the first render drew the
// splash and the page then waited 40-50 ms for the answers before drawing the
// workspace. The page lives as long as the app: the session is never stopped.
import { startApp } from './start-app';

startApp();

// The one pull failure the events classify by its own class: a list whose
// cursors the service kept refusing. Kept here, below pull/, so that
// sync-error-info.ts (used by pull, push and the engine) names it without
// importing the page walker.
/** The service kept refusing the list's cursors until the run's time was up; pages applied stay. */
export class CursorsRefusedError extends Error {
  override readonly name = 'CursorsRefusedError';
  constructor(
    readonly collection: string,
    readonly scope: string,
    readonly restarts: number,
    options: { cause: unknown },
  ) {
    super(
      `${collection}${scope ? ` (${scope})` : ''}: the service refused the list's cursors ${restarts} time(s) and the pass could not finish within this sync's time; the pages received are kept and the next sync starts the list over`,
      options,
    );
  }
}

// For tests that run `svc-desktop sync` and read how it ended: the summary it
// prints as its last stdout line, and what is wrong with that ending, if
// anything. Apart from in-process-cli because a spawned run ends the same way.

/** The keys every sync summary carries. */
export const SUMMARY_KEYS = ['conflicts', 'not_modified', 'pulled', 'pushed', 'requests', 'tasks'];

interface EndedRun {
  code: number | null;
  stdout: string;
}

/** The run's summary: its last stdout line, parsed (throws when that is not JSON). */
export function summaryOf(run: EndedRun): Record<string, unknown> {
  return JSON.parse(run.stdout.trimEnd().split('\n').at(-1) ?? '') as Record<string, unknown>;
}

/** What is wrong with the summary and exit code of a finished run, if anything; `shown` is added to tell the run. */
export function summaryProblem(run: EndedRun, shown: string): string | null {
  let summary: Record<string, unknown>;
  try {
    summary = summaryOf(run);
  } catch {
    return `no summary as the last stdout line (${shown})`;
  }
  const missing = SUMMARY_KEYS.filter((key) => !(key in summary));
  if (missing.length > 0) return `summary without ${missing.join(', ')} (${shown})`;
  if (run.code !== 0 && run.code !== 1) return `exit code ${run.code} (${shown})`;
  return null;
}

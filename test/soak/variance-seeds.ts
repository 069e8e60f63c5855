// Which variance seeds a variance test runs: a few by default (npm test), any
// list or range from VARIANCE_SEEDS (`1-20`, `3,7,11`), which the soak sets.
export const DEFAULT_VARIANCE_SEEDS: readonly number[] = [1, 2, 3];

export function varianceSeeds(raw: string | undefined = process.env.VARIANCE_SEEDS): number[] {
  if (raw === undefined || raw.trim() === '') return [...DEFAULT_VARIANCE_SEEDS];
  const seeds: number[] = [];
  for (const part of raw.split(',')) {
    const range = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!range) throw new Error(`VARIANCE_SEEDS: '${part}' is not a seed or a range like 1-20`);
    const from = Number(range[1]);
    const to = range[2] === undefined ? from : Number(range[2]);
    for (let seed = from; seed <= to; seed++) seeds.push(seed);
  }
  return seeds;
}

/** Property runs a seed (VARIANCE_RUNS; the soak may ask for more). */
export function varianceRuns(raw: string | undefined = process.env.VARIANCE_RUNS): number {
  if (raw === undefined || raw.trim() === '') return 5;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1)
    throw new Error(`VARIANCE_RUNS: '${raw}' is not a positive integer`);
  return runs;
}

/** Errors that say the client could not take a conforming answer, or a bug, rather than a fault it met. */
export function defectsAmong(errors: readonly unknown[]): string[] {
  const defects = new Set([
    'InvalidResponseError',
    'TypeError',
    'SyntaxError',
    'ReferenceError',
    'RangeError',
    'ZodError',
  ]);
  return errors
    .map((error) =>
      error instanceof Error
        ? { name: error.name, text: `${error.name}: ${error.message}` }
        : { name: 'thrown', text: String(error) },
    )
    .filter((e) => defects.has(e.name) || e.name === 'thrown')
    .map((e) => e.text);
}

/** Times the chaos test kills `sync --once` a seed (CHAOS_KILLS; the soak's --chaos asks for more). */
export function chaosKills(raw: string | undefined = process.env.CHAOS_KILLS): number {
  if (raw === undefined || raw.trim() === '') return 3;
  const kills = Number(raw);
  if (!Number.isInteger(kills) || kills < 0) throw new Error(`CHAOS_KILLS: '${raw}' is not a whole number`);
  return kills;
}

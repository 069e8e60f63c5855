// The convergence property against the emulator's variance mode: the server
// keeps the contract but sends fields absent or null, unknown fields and enum
// values, short and empty pages, refuses cursors, answers 429s, 500s and cut
// bodies, and changes ETags. Once its faults stop and sync runs until quiet:
// the mirror equals what the server sends (every field, unknown ones kept),
// every local edit is on the server or in an open conflict, no create happened
// twice, and no sync failed for want of understanding a conforming answer.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { defectsAmong, varianceRuns, varianceSeeds } from '../../test/soak/variance-seeds';
import { actionArbitrary, convergenceRun } from './testing/convergence-world';

for (const seed of varianceSeeds()) {
  test(`variance seed ${seed}: edits, peer changes and the server's liberties converge once faults stop`, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(actionArbitrary, { minLength: 4, maxLength: 14 }), async (actions) => {
        run += 1;
        await convergenceRun(
          actions,
          {
            seedTasks: 12,
            seed: 2000 + run,
            variance: { seed: seed * 100 + run, maxRetryAfterSeconds: 0, maxDelayMs: 30 },
          },
          (world) => expect(defectsAmong(world.errors)).toEqual([]),
        );
      }),
      { numRuns: varianceRuns(), seed, endOnFailure: true, includeErrorInReport: true },
    );
  }, 120_000);
}

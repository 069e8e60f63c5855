// Property: whatever the interleaving of local edits and creates, the peer's
// edits, creates and deletes, and injected faults (dropped connections, 500s,
// 429s), once sync has run until quiet (resolving nothing):
//   - every operation is settled, or waits in (or behind) an open conflict;
//   - every task in the mirror equals the server's, where no conflict is open;
//   - every local edit reached the server, or is in an open conflict;
//   - no local write replaced a value the person never saw (no silent overwrite);
//   - no create happened twice.
import fc from 'fast-check';
import { test } from 'vitest';
import { actionArbitrary, convergenceRun } from './testing/convergence-world';

test('local edits, peer edits and faults in any order converge: mirror equals server, no edit lost, no create twice', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(actionArbitrary, { minLength: 4, maxLength: 14 }), async (actions) => {
      run += 1;
      await convergenceRun(actions, { seedTasks: 3, seed: 1000 + run });
    }),
    { numRuns: 25 },
  );
}, 240_000);

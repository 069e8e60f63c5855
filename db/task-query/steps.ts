// A read in synchronous steps (a generator yielding between them), run to its
// end in one go by a caller that may block.

/** The answer of `steps`, every step run at once. */
export function runSteps<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

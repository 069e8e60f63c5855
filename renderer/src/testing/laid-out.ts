// happy-dom lays nothing out: every element's clientHeight is 0, and the list's
// virtualizer then draws no rows. A test file of the list calls this once to give
// each element a window's height for its tests, put back after them.
import { afterAll, beforeAll } from 'vitest';

export function elementsLaidOutEachFile(height = 600): void {
  const layout = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  });
  afterAll(() => {
    if (layout) Object.defineProperty(HTMLElement.prototype, 'clientHeight', layout);
  });
}

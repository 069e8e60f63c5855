// happy-dom lays nothing out: a virtual list's body is given a height for the
// tests of a file, or its virtualizer draws no rows. Tests only.
import { afterAll, beforeAll } from 'vitest';

/** Every element reads `height` as its clientHeight while the file's tests run. */
export function clientHeightEachTest(height: number): void {
  const layout = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  beforeAll(() => {
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', { configurable: true, get: () => height });
  });
  afterAll(() => {
    if (layout) Object.defineProperty(HTMLElement.prototype, 'clientHeight', layout);
  });
}

// A component whose code loads when it is first drawn: a chunk of its own, so
// the screen the app opens on parses and runs only its own code before its
// first rows (the ui benchmark's first_rows_ms). Its chunk is a local file,
// read in milliseconds; meanwhile its place stays empty.
import { type ComponentType, lazy, Suspense } from 'react';

/**
 * `load`'s component, in a boundary of its own: while it loads, only its own
 * place is empty, never the screen around it.
 */
export function later<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  const Lazy = lazy(async () => ({ default: await load() }));
  return function Later(props: P) {
    return (
      <Suspense fallback={null}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

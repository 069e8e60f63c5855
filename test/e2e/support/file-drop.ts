// Files dropped on the page from outside it, as the system hands them: a
// DataTransfer built in the page holding Files (names, declared types, bytes)
// and never a path, for a test to dispatch as dragenter, dragover and drop.
import type { JSHandle, Page } from 'playwright-core';

export interface DroppedFile {
  name: string;
  /** The type the system declares for it (`text/plain`, or '' when it declares none). */
  type: string;
  text: string;
}

export function filesDropped(page: Page, files: readonly DroppedFile[]): Promise<JSHandle> {
  // Written as the page's own script: the tests' types have no DOM.
  return page.evaluateHandle(`(() => {
    const transfer = new DataTransfer();
    for (const f of ${JSON.stringify(files)}) transfer.items.add(new File([f.text], f.name, { type: f.type }));
    return transfer;
  })()`);
}

// What assistive technology is told of a dialog before any script runs: a modal
// dialog (an alert dialog for a question), named by its label or its heading.
// Opening, focus and Escape are driven in Chromium by the end-to-end suite.
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { ModalDialog } from './modal-dialog';

const nothing = () => undefined;

describe('ModalDialog', () => {
  test('a dialog is modal and named by its label', () => {
    const html = renderToStaticMarkup(
      <ModalDialog onClose={nothing} className="palette" label="Command palette" testId="palette">
        <p>Type a command</p>
      </ModalDialog>,
    );
    expect(html).toMatch(/^<dialog /);
    expect(html).toContain('aria-modal="true"');
    expect(html).toContain('aria-label="Command palette"');
    expect(html).toContain('class="modal palette"');
    expect(html).toContain('data-testid="palette"');
    expect(html).not.toContain('role=');
    expect(html).toContain('<p>Type a command</p>');
  });

  test('a question that needs an answer is an alert dialog, named by its heading', () => {
    const html = renderToStaticMarkup(
      <ModalDialog onClose={nothing} className="confirm" alert labelledBy="confirm-title">
        <h2 id="confirm-title">Discard this change?</h2>
      </ModalDialog>,
    );
    expect(html).toContain('role="alertdialog"');
    expect(html).toContain('aria-labelledby="confirm-title"');
    expect(html).not.toContain('aria-label=');
  });
});

import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { LeftOutNotice } from './status-bar';

test('the status bar counts the items the last sync left out and names them in its tooltip (issue 27)', () => {
  const html = renderToStaticMarkup(
    <LeftOutNotice
      leftOut={{
        items: [
          { collection: 'tasks', id: 'tsk_9', field: 'status', reason: 'expected string' },
          { collection: 'sprints', id: 'spr_1', field: 'name', reason: 'must have at most 120 characters' },
        ],
        more: 1,
      }}
    />,
  );
  expect(html).toContain('>3 items left out</button>');
  expect(html).toContain(
    'title="Tasks › tsk_9: status could not be read\nSprints › spr_1: name could not be read\nand 1 more"',
  );
  expect(renderToStaticMarkup(<LeftOutNotice leftOut={{ items: [], more: 0 }} />)).toBe('');
});

// What a comment puts on screen: styled pieces and line breaks, and whatever
// looks like HTML escaped as text (the page's DOM is checked by test/e2e/comments.test.ts).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { CommentText, FIRST_CHARS, FIRST_LINES } from './comment-body';

describe('CommentText', () => {
  test('HTML in a comment is text, not markup', () => {
    const html = renderToStaticMarkup(
      <CommentText text={'<img src=x onerror="alert(1)"><script>x</script>'} />,
    );
    expect(html).toBe(
      '<p class="comment-text">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;&lt;script&gt;x&lt;/script&gt;</p>',
    );
  });

  test('bold, code, mentions and line breaks are elements around the words', () => {
    const html = renderToStaticMarkup(<CommentText text={'**Ship** `v2`\nask @ana'} />);
    expect(html).toBe(
      '<p class="comment-text"><strong>Ship</strong> <code>v2</code><br/>ask <span class="mention">@ana</span></p>',
    );
  });
});

describe('a long comment', () => {
  const lines = Array.from({ length: 200_000 }, (_, n) => `line ${n + 1}`).join('\n');

  test('shows its first lines and offers the rest behind "Show more", never the whole text at once', () => {
    const html = renderToStaticMarkup(<CommentText text={lines} />);
    expect(html).toContain('line 1<br/>');
    expect(html).toContain(`line ${FIRST_LINES}</p>`);
    expect(html).not.toContain(`line ${FIRST_LINES + 1}<`);
    expect(html).toContain(
      `Show more (${(200_000 - FIRST_LINES).toLocaleString('en-US')} more lines)</button>`,
    );
  });

  test('one line of megabytes is cut at the character limit, and says there is more', () => {
    const html = renderToStaticMarkup(<CommentText text={'x'.repeat(1_000_000)} />);
    expect(html.length).toBeLessThan(FIRST_CHARS + 200);
    expect(html).toContain('…</p>');
    expect(html).toContain('>Show more</button>');
  });

  test('a short comment shows whole, with no button', () => {
    const html = renderToStaticMarkup(<CommentText text={'one\ntwo'} />);
    expect(html).toBe('<p class="comment-text">one<br/>two</p>');
  });
});

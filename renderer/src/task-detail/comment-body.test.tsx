// What a comment puts on screen: styled pieces and line breaks, and whatever
// looks like HTML escaped as text (the page's DOM is checked by test/e2e/comments.test.ts).
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, test } from 'vitest';
import { CommentText } from './comment-body';

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

import { describe, expect, test } from 'vitest';
import { commentLines, commentPreview, linePieces, mentionBeforeCaret, mentionMatches } from './comment-text';

describe('a comment text is cut into pieces, never parsed as HTML', () => {
  test.each([
    ['plain words', 'just words', [{ kind: 'text', text: 'just words' }]],
    [
      'bold and code',
      'a **big** and `x()` end',
      [
        { kind: 'text', text: 'a ' },
        { kind: 'bold', text: 'big' },
        { kind: 'text', text: ' and ' },
        { kind: 'code', text: 'x()' },
        { kind: 'text', text: ' end' },
      ],
    ],
    [
      'a mention, not its trailing dot',
      'ask @ana.lee.',
      [
        { kind: 'text', text: 'ask ' },
        { kind: 'mention', text: '@ana.lee', username: 'ana.lee' },
        { kind: 'text', text: '.' },
      ],
    ],
    [
      'an e-mail address is no mention',
      'mail bo@example.com',
      [{ kind: 'text', text: 'mail bo@example.com' }],
    ],
    ['bold inside code stays literal', '`**no**`', [{ kind: 'code', text: '**no**' }]],
    [
      'HTML stays text',
      '<img src=x onerror=alert(1)>',
      [{ kind: 'text', text: '<img src=x onerror=alert(1)>' }],
    ],
    ['unclosed markers stay text', '**open `tick', [{ kind: 'text', text: '**open `tick' }]],
  ])('%s', (_name, line, pieces) => {
    expect(linePieces(line)).toEqual(pieces);
  });

  test('every line keeps all of its text', () => {
    const text = 'one **b** @me\r\ntwo `c`\nthree';
    const lines = commentLines(text);
    expect(lines).toHaveLength(3);
    expect(
      lines.map((pieces) =>
        pieces
          .map((p) => (p.kind === 'bold' ? `**${p.text}**` : p.kind === 'code' ? `\`${p.text}\`` : p.text))
          .join(''),
      ),
    ).toEqual(text.split(/\r\n|\n/));
  });
});

describe('@ completion', () => {
  test.each([
    ['hi @an', 6, { start: 3, query: 'an' }],
    ['@', 1, { start: 0, query: '' }],
    ['mail bo@ex', 10, null],
    ['@ana done', 9, null],
    ['(@b', 3, { start: 1, query: 'b' }],
  ])('%j with the caret at %d', (text, caret, found) => {
    expect(mentionBeforeCaret(text, caret)).toEqual(found);
  });

  test('names starting with the query come before names containing it', () => {
    expect(mentionMatches(['bana', 'Ana', 'carl', 'anton'], 'an')).toEqual(['Ana', 'anton', 'bana']);
    expect(mentionMatches(['a', 'b', 'c'], '', 2)).toEqual(['a', 'b']);
  });
});

describe('commentPreview', () => {
  test('takes the first lines up to both limits, counting what it left out', () => {
    const preview = commentPreview('a\nb\nc\nd', 2, 100);
    expect(preview.lines).toEqual([[{ kind: 'text', text: 'a' }], [{ kind: 'text', text: 'b' }]]);
    expect(preview).toMatchObject({ hiddenLines: 2, cut: true });
    const byChars = commentPreview('abcd\nefgh\nijkl', 10, 6);
    expect(byChars.lines).toEqual([[{ kind: 'text', text: 'abcd' }], [{ kind: 'text', text: 'ef…' }]]);
    expect(byChars).toMatchObject({ hiddenLines: 1, cut: true });
    expect(commentPreview('a\nb', 2, 100)).toMatchObject({ hiddenLines: 0, cut: false });
  });
});

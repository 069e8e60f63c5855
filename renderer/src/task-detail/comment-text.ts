// A comment's Markdown-ish text cut into pieces the screen styles (bold, code,
// @mentions, line breaks) by splitting the string: never parsed as HTML, so
// whatever a comment holds is shown as the text it is.

export type CommentPiece =
  | { kind: 'text'; text: string }
  | { kind: 'bold'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'mention'; text: string; username: string };

// Code first, so `**x**` inside backticks stays literal; a mention starts after
// a space or the line's start (not inside an e-mail address) and does not end on a dot.
const PIECE = /`([^`\n]+)`|\*\*([^*\n](?:[^\n]*?[^*\n])?)\*\*|(?<![\w@.])@([A-Za-z0-9_](?:[\w.-]*[\w-])?)/g;

/** One line's pieces, in order; the line's text is their texts joined. */
export function linePieces(line: string): CommentPiece[] {
  const pieces: CommentPiece[] = [];
  let from = 0;
  for (const match of line.matchAll(PIECE)) {
    const at = match.index;
    if (at > from) pieces.push({ kind: 'text', text: line.slice(from, at) });
    const [whole, code, bold, username] = match;
    if (code !== undefined) pieces.push({ kind: 'code', text: code });
    else if (bold !== undefined) pieces.push({ kind: 'bold', text: bold });
    else if (username !== undefined) pieces.push({ kind: 'mention', text: whole, username });
    from = at + whole.length;
  }
  if (from < line.length) pieces.push({ kind: 'text', text: line.slice(from) });
  return pieces;
}

/** The text's lines (\r\n, \r or \n), each cut into pieces. */
export function commentLines(text: string): CommentPiece[][] {
  return text.split(/\r\n|\r|\n/).map(linePieces);
}

/** The `@` word being typed just before the caret, for completion; null when the caret is not in one. */
export function mentionBeforeCaret(text: string, caret: number): { start: number; query: string } | null {
  const match = /(?:^|[\s(])@([\w.-]*)$/.exec(text.slice(0, caret));
  if (match === null) return null;
  const query = match[1] ?? '';
  return { start: caret - query.length - 1, query };
}

/** Usernames that complete `query` (those starting with it first), at most `limit`. */
export function mentionMatches(usernames: readonly string[], query: string, limit = 8): string[] {
  const q = query.toLowerCase();
  const starts = usernames.filter((name) => name.toLowerCase().startsWith(q));
  const contains =
    q === ''
      ? []
      : usernames.filter((name) => !name.toLowerCase().startsWith(q) && name.toLowerCase().includes(q));
  return [...starts, ...contains].slice(0, limit);
}

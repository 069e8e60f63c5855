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

/** The first part of a long comment, shown until the person asks for more. */
export interface CommentPreview {
  lines: CommentPiece[][];
  /** Lines not shown (a line cut short counts as shown). */
  hiddenLines: number;
  /** Whether anything is left out: lines, or the end of a line cut at the character limit. */
  cut: boolean;
}

/**
 * At most `maxLines` lines and `maxChars` characters of the text, cut into
 * pieces: a teammate's comment of 200 000 lines took seconds to put on screen
 * whole, freezing the window; only what is shown is cut into pieces.
 */
export function commentPreview(text: string, maxLines: number, maxChars: number): CommentPreview {
  const all = text.split(/\r\n|\r|\n/);
  const lines: CommentPiece[][] = [];
  let chars = 0;
  let cut = all.length > maxLines;
  for (const line of all.slice(0, maxLines)) {
    const room = maxChars - chars;
    if (room <= 0) {
      cut = true;
      break;
    }
    if (line.length > room) {
      lines.push(linePieces(`${line.slice(0, room)}…`));
      cut = true;
      break;
    }
    lines.push(linePieces(line));
    chars += line.length;
  }
  return { lines, hiddenLines: all.length - lines.length, cut };
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

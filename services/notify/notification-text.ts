// What a teammate wrote, made fit for a desktop notification. Titles, names and
// values come from other people; the OS shows them outside the app's window,
// where a Linux notification server reads markup (`<a href>`, `<img>`), a line
// break can push our own words out of view, and bidi controls can make
// "exe.txt" read as "txt.exe". So: tags stripped, controls and line breaks
// made spaces, bidi controls dropped, and a cap on the length.

/** Bidirectional embedding, override and isolate controls, and the marks (U+200E, U+200F, U+061C). */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
/** Other control characters (C0, DEL, C1) and line or paragraph separators: a space each. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;
/** Something a markup reader would take for a tag: `<b>`, `</a>`, `<img src=x>`, `<!-- -->`. */
const TAG_LIKE = /<\s*[/!?]?\s*[A-Za-z!-][^<>]*>/g;

/** The longest a title a person typed is shown in a notification's text. */
export const LONGEST_NAME = 80;
/** The longest notification title and body the app sends the OS. */
export const LONGEST_TITLE = 100;
export const LONGEST_BODY = 300;

/** `text` on one line, without markup or bidi controls, at most `longest` characters ("…" ends a cut one). */
export function notificationText(text: string, longest: number): string {
  const plain = text
    .replace(TAG_LIKE, ' ')
    .replace(BIDI_CONTROLS, '')
    .replace(CONTROLS, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = [...plain];
  if (characters.length <= longest) return plain;
  return `${characters
    .slice(0, Math.max(0, longest - 1))
    .join('')
    .trimEnd()}…`;
}

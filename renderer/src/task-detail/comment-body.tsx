// A comment's text on screen: the pieces comment-text.ts cut it into, as React
// elements and text nodes only (no HTML is ever parsed from a comment).
import { Fragment, useState } from 'react';
import { commentPreview, type CommentPiece } from './comment-text';

function Piece({ piece }: { piece: CommentPiece }) {
  switch (piece.kind) {
    case 'bold':
      return <strong>{piece.text}</strong>;
    case 'code':
      return <code>{piece.text}</code>;
    case 'mention':
      return <span className="mention">{piece.text}</span>;
    default:
      return <>{piece.text}</>;
  }
}

/** Lines and characters a comment shows at first; each "Show more" shows ten times as much. */
export const FIRST_LINES = 40;
export const FIRST_CHARS = 4000;
const MORE_FACTOR = 10;

/**
 * The text as React text nodes only: styled pieces and line breaks, never
 * HTML. A long one shows its first lines and a "Show more" button.
 */
export function CommentText({ text }: { text: string }) {
  const [shown, setShown] = useState(1);
  const preview = commentPreview(text, FIRST_LINES * shown, FIRST_CHARS * shown);
  return (
    <>
      <p className="comment-text">
        {preview.lines.map((pieces, line) => (
          <Fragment key={line}>
            {line > 0 ? <br /> : null}
            {pieces.map((piece, index) => (
              <Piece key={index} piece={piece} />
            ))}
          </Fragment>
        ))}
      </p>
      {preview.cut ? (
        <button type="button" className="link-button" onClick={() => setShown((n) => n * MORE_FACTOR)}>
          Show more
          {preview.hiddenLines > 0
            ? ` (${preview.hiddenLines.toLocaleString('en-US')} more ${preview.hiddenLines === 1 ? 'line' : 'lines'})`
            : ''}
        </button>
      ) : null}
    </>
  );
}

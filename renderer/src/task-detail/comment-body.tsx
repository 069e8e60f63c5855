// A comment's text on screen: the pieces comment-text.ts cut it into, as React
// elements and text nodes only (no HTML is ever parsed from a comment).
import { Fragment } from 'react';
import { commentLines, type CommentPiece } from './comment-text';

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

/** The text as React text nodes only: styled pieces and line breaks, never HTML. */
export function CommentText({ text }: { text: string }) {
  return (
    <p className="comment-text">
      {commentLines(text).map((pieces, line) => (
        <Fragment key={line}>
          {line > 0 ? <br /> : null}
          {pieces.map((piece, index) => (
            <Piece key={index} piece={piece} />
          ))}
        </Fragment>
      ))}
    </p>
  );
}

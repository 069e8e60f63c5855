// A `multipart/form-data` body (RFC 7578) read whole: its text fields and its
// file parts. Read whole because the Idempotency-Key hook fingerprints the body
// before the route runs; the fingerprint (toJSON) is the fields and each file's
// name, type and SHA-256, not the raw bytes, whose boundary a retry changes.
import { createHash } from 'node:crypto';
import { fieldProblem } from '../body-validation';

export interface FormFile {
  field: string;
  fileName: string;
  /** The part's Content-Type, or null when it has none. */
  contentType: string | null;
  bytes: Buffer;
  sha256: string;
}

export class MultipartForm {
  constructor(
    readonly fields: ReadonlyMap<string, string>,
    readonly files: readonly FormFile[],
  ) {}

  /** What requestFingerprint (idempotency.ts) hashes: the same upload fingerprints alike whatever its boundary. */
  toJSON(): unknown {
    return {
      fields: [...this.fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      files: this.files.map((f) => [f.field, f.fileName, f.contentType, f.bytes.length, f.sha256]),
    };
  }
}

const refused = (msg: string) => fieldProblem(['body'], `not a valid multipart/form-data body: ${msg}`);

function boundaryOf(contentType: string): string {
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw refused('no boundary');
  return boundary;
}

/** A Content-Disposition parameter; quoted values undo the percent-escapes HTML forms and undici write. */
function parameter(disposition: string, name: string): string | null {
  const match = new RegExp(`;\\s*${name}="((?:[^"\\\\]|\\\\.)*)"|;\\s*${name}=([^;\\s]+)`, 'i').exec(
    disposition,
  );
  if (!match) return null;
  if (match[2] !== undefined) return match[2];
  return (match[1] ?? '')
    .replace(/\\(.)/g, '$1')
    .replace(/%22/g, '"')
    .replace(/%0D/gi, '\r')
    .replace(/%0A/gi, '\n');
}

export function parseMultipartForm(body: Buffer, contentType: string): MultipartForm {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const fields = new Map<string, string>();
  const files: FormFile[] = [];
  let at = body.indexOf(delimiter);
  if (at < 0) throw refused('no part');
  for (;;) {
    at += delimiter.length;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) break; // the closing delimiter
    if (body[at] !== 0x0d || body[at + 1] !== 0x0a) throw refused('a delimiter without its line break');
    const headersEnd = body.indexOf('\r\n\r\n', at + 2);
    if (headersEnd < 0) throw refused('a part without the end of its headers');
    const headers = new Map<string, string>();
    for (const line of body
      .subarray(at + 2, headersEnd)
      .toString('utf8')
      .split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), headersEnd + 4);
    if (next < 0) throw refused('a part without its closing delimiter');
    const content = body.subarray(headersEnd + 4, next);
    const disposition = headers.get('content-disposition') ?? '';
    const name = parameter(disposition, 'name');
    if (!/^form-data\b/i.test(disposition) || name === null) throw refused('a part without a form-data name');
    const fileName = parameter(disposition, 'filename');
    if (fileName === null) {
      fields.set(name, content.toString('utf8'));
    } else {
      files.push({
        field: name,
        fileName,
        contentType: headers.get('content-type') ?? null,
        bytes: content,
        sha256: createHash('sha256').update(content).digest('hex'),
      });
    }
    at = next + 2;
  }
  return new MultipartForm(fields, files);
}

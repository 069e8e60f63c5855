// A `multipart/form-data` body (RFC 7578) built whole in memory: text fields
// and one file part with its name and content type. An upload is at most the
// contract's 25 MB, and a body held whole can be sent again as it is when a
// retry under the same Idempotency-Key needs it.
import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  field: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface MultipartBody {
  contentType: string;
  bytes: Buffer;
}

/** A quoted-string parameter value: quotes, backslashes and line breaks escaped as browsers do (WHATWG). */
function quoted(value: string): string {
  return `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
}

export function multipartBody(
  fields: Readonly<Record<string, string>>,
  file: MultipartFile,
  boundary = `----svc-desktop-${randomBytes(16).toString('hex')}`,
): MultipartBody {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`,
      ),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.fileName)}\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
    Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { contentType: `multipart/form-data; boundary=${boundary}`, bytes: Buffer.concat(parts) };
}

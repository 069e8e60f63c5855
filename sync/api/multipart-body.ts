// A `multipart/form-data` body (RFC 7578): text fields and one file part with
// its name and content type, sent in chunks so that the bytes on their way can
// be counted (an upload's progress) while its length is known before it
// starts (sent with Content-Length: the service sees the same request as a
// body sent whole). Each attempt reads it again from its start, so a retry
// under the same Idempotency-Key sends the same bytes.
import { randomBytes } from 'node:crypto';

export interface MultipartFile {
  field: string;
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface MultipartBody {
  contentType: string;
  /** The body's length in bytes (its Content-Length). */
  length: number;
  /** The body from its first byte, in chunks of at most `UPLOAD_CHUNK_BYTES`: a new pass each call. */
  chunks(): Iterable<Uint8Array>;
}

/**
 * 64 KB: small enough that a 25 MB upload reports its progress in about four
 * hundred steps, large enough that the chunks cost nothing next to the socket.
 */
export const UPLOAD_CHUNK_BYTES = 64 * 1024;

/** A quoted-string parameter value: quotes, backslashes and line breaks escaped as browsers do (WHATWG). */
function quoted(value: string): string {
  return `"${value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')}"`;
}

export function multipartBody(
  fields: Readonly<Record<string, string>>,
  file: MultipartFile,
  boundary = `----svc-desktop-${randomBytes(16).toString('hex')}`,
): MultipartBody {
  let head = '';
  for (const [name, value] of Object.entries(fields)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(name)}\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name=${quoted(file.field)}; filename=${quoted(file.fileName)}\r\n` +
    `Content-Type: ${file.contentType}\r\n\r\n`;
  const parts = [
    Buffer.from(head),
    Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ];
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: parts.reduce((total, part) => total + part.byteLength, 0),
    *chunks() {
      for (const part of parts) {
        for (let at = 0; at < part.byteLength; at += UPLOAD_CHUNK_BYTES)
          yield part.subarray(at, at + UPLOAD_CHUNK_BYTES);
      }
    },
  };
}

/**
 * The form's chunks, each counted once the connection has taken it (undici
 * asks for the next chunk only after writing, and waiting out, the last).
 */
export function* countedChunks(
  form: MultipartBody,
  onProgress: ((sentBytes: number, totalBytes: number) => void) | undefined,
): Generator<Uint8Array> {
  let sent = 0;
  onProgress?.(0, form.length);
  for (const chunk of form.chunks()) {
    yield chunk;
    sent += chunk.byteLength;
    onProgress?.(sent, form.length);
  }
}

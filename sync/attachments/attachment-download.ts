// An attachment's content brought into the app's private files
// (db/attachments/attachment-files.ts): written to `<sha256>.part` as it
// arrives, so that a cut connection (or a restart) goes on from the bytes
// already there with `Range` and `If-Range` instead of starting over, and
// kept under its name only once its bytes hash to the record's `sha256`.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { open, rm, stat } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import type { AttachmentFiles } from '../../db/attachments/attachment-files';
import type { ApiClient } from '../api/api-client';
import type { RequestLane } from '../api/rate-governor';
import { NetworkError, ProblemError } from '../api/errors';
import { attachmentContentOperation } from '../api/operations';

/** Bytes that do not hash to the record's `sha256`: the download is thrown away, never opened. */
export class ContentChecksumError extends Error {
  override readonly name = 'ContentChecksumError';
  constructor(
    readonly attachmentId: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      `the content of attachment ${attachmentId} does not match its sha256 (expected ${expected}, got ${actual}); it was not kept`,
    );
  }
}

export interface DownloadedContent {
  /** Where the checked bytes are kept (the private folder). */
  path: string;
  sha256: string;
  bytes: number;
  /** Already kept: nothing was asked of the service. */
  cached: boolean;
  /** The offset a `Range` answer (206) went on from, when one did; null when the bytes came whole. */
  resumedFrom: number | null;
}

async function sizeOf(path: string): Promise<number> {
  try {
    return (await stat(path)).size;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
}

async function hashOf(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The first byte a 206 carries (`Content-Range: bytes START-END/TOTAL`). */
function rangeStart(header: string | string[] | undefined): number {
  const match = /^bytes (\d+)-\d+\/(?:\d+|\*)$/.exec(String(header ?? '').trim());
  if (!match) throw new Error(`a 206 answer without a usable Content-Range (${String(header)})`);
  return Number(match[1]);
}

/**
 * Downloads the content of one attachment, whose record says its `sha256`,
 * into `files`; a copy already kept is used as it is. `attempts`: how many
 * times a download cut short goes on before the failure is said (the API
 * client's own retries go on from the bytes kept, too). `lane`: `user` (the
 * default) when a person opens it, `background` for the cache's fill.
 */
export async function downloadAttachment(
  api: ApiClient,
  files: AttachmentFiles,
  attachment: { attachmentId: string; sha256: string },
  options: { signal?: AbortSignal; attempts?: number; lane?: RequestLane } = {},
): Promise<DownloadedContent> {
  const { attachmentId, sha256 } = attachment;
  const path = files.pathOf(sha256);
  if (files.has(sha256)) {
    files.touch(sha256);
    return { path, sha256, bytes: await sizeOf(path), cached: true, resumedFrom: null };
  }
  files.ensureFolder();
  const part = files.partPathOf(sha256);
  let resumedFrom: number | null = null;
  const attempts = Math.max(1, options.attempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    try {
      await api.download(
        attachmentContentOperation,
        { attachmentId },
        async ({ status, headers, body }) => {
          const start = status === 206 ? rangeStart(headers['content-range']) : 0;
          if (status === 206 && start > 0) resumedFrom = start;
          const handle = await open(part, existsSync(part) ? 'r+' : 'w', 0o600);
          try {
            // What is there past where this answer starts is not trusted: the answer rewrites it.
            await handle.truncate(start);
            let at = start;
            for await (const chunk of body) {
              await handle.write(chunk, 0, chunk.byteLength, at);
              at += chunk.byteLength;
            }
          } finally {
            await handle.close();
          }
        },
        () => {
          // Asked before every attempt: go on from what the part file holds, while the content is still this one.
          const have = existsSync(part) ? statSync(part).size : 0;
          return have > 0 ? { range: `bytes=${have}-`, 'if-range': `"${sha256}"` } : {};
        },
        { lane: options.lane ?? 'user', ...(options.signal ? { signal: options.signal } : {}) },
      );
      break;
    } catch (error) {
      // The part holds more than the content (it changed, or a damaged part): start over once.
      if (error instanceof ProblemError && error.status === 416) {
        await rm(part, { force: true });
        if (attempt < attempts) continue;
      }
      if (error instanceof NetworkError && attempt < attempts) continue;
      throw error;
    }
  }
  const actual = await hashOf(part);
  if (actual !== sha256) {
    await rm(part, { force: true });
    throw new ContentChecksumError(attachmentId, sha256, actual);
  }
  files.adoptPart(sha256);
  return { path, sha256, bytes: await sizeOf(path), cached: false, resumedFrom };
}

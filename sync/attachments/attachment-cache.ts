// The attachments' content kept on this computer, so that a person can open
// them offline: those of the tasks they are likely to open (the comments'
// rule, sync/pull/comment-watch.ts: their own open tasks, their teams' current
// sprints, what they opened in the last 30 days), downloaded in the
// background, within a size a person sets (1 GB unless they say otherwise),
// the least recently used evicted first. Never evicted: the copy of an upload
// still waiting in the outbox (it is the only one there is).
import type { AttachmentFiles, CacheUse } from '../../db/attachments/attachment-files';
import type { Mirror } from '../../db/mirror';
import { taskAttachments } from '../../db/read-models/task-attachments';
import { UNSETTLED_STATES } from '../../db/tasks/task-overlay';
import { taskAttachmentKind } from '../../protocol/task-attachment';
import type { ApiClient } from '../api/api-client';
import { NetworkError, ProblemError } from '../api/errors';
import { openingsSince } from '../pull/comment-watch';
import { ContentChecksumError, downloadAttachment } from './attachment-download';

/** The cache's size unless the person sets another. */
export const DEFAULT_ATTACHMENT_CACHE_BYTES = 1024 ** 3;

/** Tasks of the likely-opened set whose attachments are kept (a person's few hundred at most). */
const WATCHED_TASKS = 1000;

export interface AttachmentCacheDeps {
  mirror: Mirror;
  api: ApiClient;
  files: AttachmentFiles;
  /** The signed-in person's username (whose tasks are "their own"). */
  username: string;
  now: () => number;
  /** Read at each use, so a changed setting applies at once. */
  limitBytes: () => number;
}

export interface CacheFill {
  downloaded: string[];
  /** Hashes removed to stay within the limit. */
  evicted: string[];
  /** Attachments whose download failed for a reason of their own (a 404, bytes that do not hash right). */
  failed: { attachmentId: string; reason: string }[];
  use: CacheUse;
}

export class AttachmentCache {
  constructor(private readonly deps: AttachmentCacheDeps) {}

  /** The attachments worth keeping now: those of the tasks a person is likely to open, with a known sha256. */
  wanted(): { attachmentId: string; sha256: string; size: number }[] {
    const { mirror, username } = this.deps;
    const now = this.deps.now();
    const tasks = mirror.openings.commentWatch({
      username,
      today: new Date(now).toISOString().slice(0, 10),
      openedSince: openingsSince(now),
      limit: WATCHED_TASKS,
    });
    return tasks.flatMap((taskId) =>
      taskAttachments(mirror, taskId).flatMap((a) =>
        a.sha256 === null || a.pending !== undefined
          ? []
          : [{ attachmentId: a.attachment_id, sha256: a.sha256, size: a.size_bytes ?? 0 }],
      ),
    );
  }

  /** The hashes of uploads not yet settled: their copy is never evicted. */
  pinned(): Set<string> {
    const pinned = new Set<string>();
    for (const op of this.deps.mirror.outbox.list(UNSETTLED_STATES)) {
      if (op.entityType !== taskAttachmentKind.entityType || op.kind !== 'create') continue;
      const sha256 = (op.patch as { sha256?: unknown }).sha256;
      if (typeof sha256 === 'string') pinned.add(sha256);
    }
    return pinned;
  }

  use(): CacheUse {
    return this.deps.files.use();
  }

  /** Removes the least recently used content until the cache is within its limit. */
  evict(): string[] {
    return this.deps.files.evict(this.deps.limitBytes(), this.pinned());
  }

  /**
   * Downloads what is wanted and not kept yet, in the watched set's order and
   * as much of it as fits the limit (so that a fill does not download what the
   * next one evicts), then evicts the least recently used beyond the limit. A
   * network failure stops it (the next fill goes on from the bytes kept); a
   * failure of one attachment is said and the others go on.
   */
  async fill(signal?: AbortSignal): Promise<CacheFill> {
    const { api, files } = this.deps;
    const downloaded: string[] = [];
    const failed: CacheFill['failed'] = [];
    let room = this.deps.limitBytes();
    for (const want of this.wanted()) {
      if (signal?.aborted) break;
      if (want.size > room) continue;
      room -= want.size;
      if (files.has(want.sha256)) continue;
      try {
        await downloadAttachment(api, files, want, { lane: 'background', ...(signal ? { signal } : {}) });
        downloaded.push(want.attachmentId);
      } catch (error) {
        if (error instanceof ContentChecksumError || (error instanceof ProblemError && error.status < 500)) {
          failed.push({ attachmentId: want.attachmentId, reason: error.message });
          continue;
        }
        if (error instanceof NetworkError) break;
        throw error;
      }
    }
    const evicted = this.evict();
    return { downloaded, evicted, failed, use: this.use() };
  }
}

// Task attachments (gaps.md "Attachments"): the list per task or organization
// with page ETags, a record with its ETag, the content with `Range`, the
// upload (multipart, idempotent, judged by the contract's upload rules and a
// malware scan stand-in), a rename and a delete with `If-Match`. An
// attachment is as readable as its task.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { attachmentFileNameField, taskAttachmentUpdateBodySchema } from '../../protocol/task-attachment';
import {
  judgeUpload,
  UPLOAD_LIMIT_BYTES,
  type UploadRefusal,
  uploadSizeRefusal,
} from '../../protocol/upload-rules';
import { fieldProblem, parseOr422 } from '../body-validation';
import { type EmulatorContext, requireOwnOrg, viewerFor } from '../emulator-context';
import { noneMatchSatisfied } from '../entity-tag';
import { sendCreationOrderList } from '../json-reply';
import { queryPairs } from '../paging';
import { ProblemReply } from '../problem';
import { canSeeProject, type EmulatorStore, type Viewer } from '../store';
import { readableTask } from '../task-changes';
import type { AttachmentRecord, AttachmentStore } from '../uploads/attachment-store';
import { rangeOf } from '../uploads/byte-range';
import { inflateRawHead } from '../../protocol/inflate-raw-head';
import { scanForMalware } from '../uploads/malware-scan';
import { type FormFile, MultipartForm, parseMultipartForm } from '../uploads/multipart-form';
import type { UploadReadHold } from '../uploads/upload-read-hold';
import { recordRoutes } from './record-routes';
import { sendCreated } from './record-writes';

const listQuerySchema = z
  .object({ task_id: z.string().min(1).optional(), org_id: z.string().min(1).optional() })
  .refine((query) => query.task_id !== undefined || query.org_id !== undefined, {
    message: 'give task_id or org_id',
    path: ['task_id'],
  });

/** Room for a form's boundaries, headers and task_id around a file at the limit. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

function serialize(store: EmulatorStore, record: AttachmentRecord): Record<string, unknown> {
  return {
    attachment_id: record.attachment_id,
    task_id: record.task_id,
    org_id: store.org.org_id,
    project_id: store.tasks.get(record.task_id)?.record.project_id ?? null,
    file_name: record.file_name,
    content_type: record.content_type,
    size_bytes: record.size_bytes,
    sha256: record.sha256,
    created_by: record.created_by,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

function readableAttachment(
  store: EmulatorStore,
  attachments: AttachmentStore,
  viewer: Viewer,
  attachmentId: string,
): AttachmentRecord {
  const record = attachments.records.get(attachmentId);
  const task = record ? store.tasks.get(record.task_id) : undefined;
  if (!record || !task || !canSeeProject(viewer, task.record.project_id)) {
    throw new ProblemReply(404, null, 'Not Found', `attachment ${attachmentId} not found`);
  }
  return record;
}

function refusalProblem(refusal: UploadRefusal): ProblemReply {
  const errors = refusal.allowed
    ? [{ loc: ['body', 'file'], msg: refusal.detail, type: refusal.type, allowed: refusal.allowed }]
    : undefined;
  return new ProblemReply(refusal.status, refusal.type, refusal.title, refusal.detail, errors);
}

/**
 * Reads a multipart body whole, up to the limit and the form's overhead; a
 * larger one is read to its end (so the client hears the answer rather than a
 * cut connection) and refused 413 `upload-too-large`.
 */
function registerMultipartParser(app: FastifyInstance, readHold: UploadReadHold): void {
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    const chunks: Buffer[] = [];
    let size = 0;
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= UPLOAD_LIMIT_BYTES + FORM_OVERHEAD_BYTES) chunks.push(chunk);
      else chunks.length = 0;
      readHold.reading(payload, size);
    });
    payload.on('error', (error) => done(error, undefined));
    payload.on('end', () => {
      const tooLarge = size > UPLOAD_LIMIT_BYTES + FORM_OVERHEAD_BYTES ? uploadSizeRefusal(size) : null;
      if (tooLarge) return done(refusalProblem(tooLarge), undefined);
      try {
        done(null, parseMultipartForm(Buffer.concat(chunks), request.headers['content-type'] ?? ''));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
  });
}

/** The form of an upload: its `task_id` field and exactly one `file` part, named within the bounds. */
function uploadOf(form: unknown): { taskId: string; file: FormFile } {
  if (!(form instanceof MultipartForm)) {
    throw fieldProblem(['body'], 'an upload is multipart/form-data with task_id and one file', 'missing');
  }
  const taskId = form.fields.get('task_id');
  if (taskId === undefined || taskId === '')
    throw fieldProblem(['body', 'task_id'], 'task_id is required', 'missing');
  const files = form.files.filter((f) => f.field === 'file');
  if (files.length !== 1 || form.files.length !== 1) {
    throw fieldProblem(
      ['body', 'file'],
      'send exactly one file part, named file',
      files.length === 0 ? 'missing' : 'too_long',
    );
  }
  const file = files[0] as FormFile;
  parseOr422(z.object({ file_name: attachmentFileNameField }), { file_name: file.fileName }, 'body');
  return { taskId, file };
}

export function registerAttachmentRoutes(app: FastifyInstance, ctx: EmulatorContext): void {
  const { store, attachments } = ctx;
  const routes = recordRoutes(app, ctx, '/v1/task-attachments/:attachment_id', {
    scope: 'tasks',
    // A 404 unless the attachment's task is readable to whoever asks.
    find: (_store, viewer, params: { attachment_id: string }) =>
      readableAttachment(store, attachments, viewer, params.attachment_id),
    serialize: (_store, _viewer, record) => serialize(store, record),
  });

  // Only the upload reads multipart bodies: every other route answers them 415, as before.
  app.register((uploads, _options, done) => {
    registerMultipartParser(uploads, attachments.readHold);
    uploads.post(
      '/v1/task-attachments',
      { config: { scope: 'tasks:write', operationId: 'task-attachments.create', idempotent: true } },
      (request, reply) => createAttachment(ctx, request, reply),
    );
    done();
  });

  routes.list((request, reply) => {
    const params = queryPairs(request.url);
    const query = parseOr422(listQuerySchema, Object.fromEntries(params), 'query');
    const viewer = viewerFor(ctx, request);
    requireOwnOrg(ctx, query.org_id, ['query', 'org_id']);
    if (query.task_id !== undefined) readableTask(store, viewer, query.task_id);
    const items = [...attachments.records.values()].filter((record) => {
      if (query.task_id !== undefined && record.task_id !== query.task_id) return false;
      const task = store.tasks.get(record.task_id);
      return task !== undefined && canSeeProject(viewer, task.record.project_id);
    });
    return sendCreationOrderList(ctx, request, reply, {
      queryKey: `task-attachments\u0000${query.task_id ?? ''}\u0000${query.org_id ?? ''}`,
      items,
      defaultLimit: 100,
      params,
      id: (a) => a.attachment_id,
      serialize: (a) => serialize(store, a),
    });
  });

  routes.get();

  app.get<{ Params: { attachment_id: string } }>(
    '/v1/task-attachments/:attachment_id/content',
    { config: { scope: 'tasks:read', operationId: 'task-attachments.content' } },
    (request, reply) => sendContent(ctx, request, reply),
  );

  routes.update({ body: taskAttachmentUpdateBodySchema }, ({ record, patch }) => {
    let next = record;
    if (patch.file_name !== undefined && patch.file_name !== record.file_name) {
      // A new name is held to the bytes as an upload's is: no renaming a PNG to .exe or .html.
      const verdict = judgeUpload(
        { fileName: patch.file_name, declaredType: null, bytes: attachments.content(record.attachment_id) },
        { inflateRawHead },
      );
      if (!verdict.ok) throw refusalProblem(verdict.refusal);
      next = {
        ...record,
        file_name: patch.file_name,
        content_type: verdict.contentType,
        updated_at: store.nowIso(),
      };
      attachments.replace(next);
    }
    return next;
  });

  routes.delete((request, reply, { record }) => {
    attachments.remove(record.attachment_id);
    return reply.code(204).send();
  });
}

/**
 * An upload, in the order the service checks it: the form, the task, the
 * contract's type and size rules (413/415), then the malware scan (503 when it
 * cannot scan now, 422 when it finds something).
 */
function createAttachment(ctx: EmulatorContext, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { store, attachments } = ctx;
  const { taskId, file } = uploadOf(request.body);
  const viewer = viewerFor(ctx, request);
  const task = readableTask(store, viewer, taskId);
  const verdict = judgeUpload(
    { fileName: file.fileName, declaredType: file.contentType, bytes: file.bytes },
    { inflateRawHead },
  );
  if (!verdict.ok) throw refusalProblem(verdict.refusal);
  const { scan } = attachments;
  const retryAfter = scan.available ? (ctx.variance?.scanUnavailable() ?? null) : scan.retryAfterSeconds;
  if (retryAfter !== null) {
    throw new ProblemReply(
      503,
      'upload-rejected',
      'Upload could not be scanned',
      'The malware scan cannot scan files now; send the file again later.',
      undefined,
      { 'retry-after': String(retryAfter) },
    );
  }
  const threat = scanForMalware(file.bytes);
  if (threat !== null) {
    throw new ProblemReply(422, 'upload-rejected', 'Upload rejected', `The malware scan found ${threat}.`);
  }
  const record = attachments.add(
    {
      task_id: task.record.task_id,
      file_name: file.fileName,
      content_type: verdict.contentType,
      size_bytes: file.bytes.length,
      sha256: file.sha256,
      created_by: viewer.username,
    },
    file.bytes,
  );
  return sendCreated(
    request,
    reply,
    `/v1/task-attachments/${record.attachment_id}`,
    serialize(store, record),
  );
}

/** A file name as an RFC 5987 value: percent-encoded UTF-8, the few characters encodeURIComponent keeps escaped too. */
function rfc5987(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The bytes, whole or one range. The ETag is the quoted SHA-256 (gaps.md; variance may send another),
 * and If-Range is compared with it strongly.
 */
function sendContent(
  ctx: EmulatorContext,
  request: FastifyRequest<{ Params: { attachment_id: string } }>,
  reply: FastifyReply,
): FastifyReply {
  const { store, attachments } = ctx;
  const record = readableAttachment(
    store,
    attachments,
    viewerFor(ctx, request),
    request.params.attachment_id,
  );
  const bytes = attachments.content(record.attachment_id);
  const etag = ctx.variance?.contentEtag(record.sha256) ?? `"${record.sha256}"`;
  reply.header('etag', etag).header('accept-ranges', 'bytes');
  if (noneMatchSatisfied(request.headers['if-none-match'], etag)) return reply.code(304).send();
  const ifRange = request.headers['if-range'];
  const rangeHeader =
    ifRange === undefined || String(ifRange).trim() === etag ? request.headers.range : undefined;
  const range = ctx.variance?.ignoresRange(rangeHeader)
    ? { kind: 'whole' as const }
    : rangeOf(rangeHeader, bytes.length);
  if (range.kind === 'unsatisfiable') {
    throw new ProblemReply(
      416,
      null,
      'Range Not Satisfiable',
      `The content is ${bytes.length} bytes; the range asked for is outside it.`,
      undefined,
      { 'content-range': `bytes */${bytes.length}` },
    );
  }
  // Bytes a person asked for, never a page: the browser neither sniffs nor shows them in place.
  reply
    .type(record.content_type)
    .header('x-content-type-options', 'nosniff')
    .header('content-disposition', `attachment; filename*=UTF-8''${rfc5987(record.file_name)}`);
  if (range.kind === 'whole') return reply.code(200).send(bytes);
  reply.header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`);
  return reply.code(206).send(bytes.subarray(range.start, range.end + 1));
}

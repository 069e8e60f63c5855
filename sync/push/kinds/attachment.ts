// The pusher's kind of attachments: renamed, deleted and read as every
// collection kind (its descriptor's), created by an upload. The outbox keeps
// the form's fields and the SHA-256 of the copy the app kept; the create sends
// that copy as `multipart/form-data` under the operation's Idempotency-Key, so
// a retry after a cut connection or a restart makes one attachment, not two.
import { taskAttachmentCreateBodySchema, taskAttachmentKind } from '../../../protocol/task-attachment';
import { sha256Hex } from '../../../db/attachments/attachment-files';
import { MissingUploadError } from '../../api/errors';
import { multipartBody } from '../../api/multipart-body';
import { kindOperationsOf } from '../../api/operations';
import type { FieldValues } from '../push-store';
import { collectionPushKind } from './collection-kind';
import type { PushKind } from './push-kind';

export function attachmentPushKind(): PushKind {
  const operations = kindOperationsOf(taskAttachmentKind);
  return {
    ...collectionPushKind(taskAttachmentKind),
    async create(api, op, _orgId, options) {
      const upload = taskAttachmentCreateBodySchema.parse(op.patch);
      const bytes = options.content ? await options.content(upload.sha256) : null;
      if (bytes === null || sha256Hex(bytes) !== upload.sha256)
        throw new MissingUploadError(operations.create.name, upload.file_name);
      const form = multipartBody(
        { task_id: upload.task_id },
        { field: 'file', fileName: upload.file_name, contentType: upload.content_type, bytes },
      );
      const { content: _content, onUploadProgress, ...request } = options;
      const answer = await api.upload(operations.create, {}, form, {
        ...request,
        ...(onUploadProgress ? { onProgress: onUploadProgress } : {}),
      });
      return { task: answer.body as FieldValues, etag: answer.etag };
    },
  };
}

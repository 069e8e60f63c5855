// The uploads on their way, as main tells them (a few times a second while an
// upload's body is sent): the bytes sent of the whole, per attachment id. Only
// while the panel is on show: an upload told before it opened is told again
// with its next chunks.
import { useCallback, useEffect, useState } from 'react';
import type { AttachmentSummary } from '../../../ipc/attachment-schemas';
import { subscribe } from '../bridge/svc';
import type { BridgeRead } from '../data/use-bridge-read';

export interface UploadProgress {
  sent_bytes: number;
  total_bytes: number;
}

interface Told extends UploadProgress {
  /** How many reads of the list had been asked when it was told. */
  readsAsked: number;
}

/**
 * The progress of an attachment's upload on its way, given the list on show
 * (`list`, the panel's read). A telling is only as good as the attempt it came
 * from: an attempt that ends without an answer (the network refused it part
 * way) goes back to the queue and tells nothing more, so a list read after the
 * telling that says the upload is not on its way wins over it (the row said
 * "Sending 42%" until the next attempt). A list read before it does not: bytes
 * going say it is being sent before the list is read again.
 */
export function useUploadProgress(
  list: Pick<BridgeRead<unknown>, 'asked' | 'answered'>,
): (attachment: Pick<AttachmentSummary, 'attachment_id' | 'pending'>) => UploadProgress | undefined {
  const [told, setTold] = useState<ReadonlyMap<string, Told>>(new Map());
  const { asked, answered } = list;
  useEffect(
    () =>
      subscribe('attachment:upload-progress', ({ attachment_id, sent_bytes, total_bytes }) =>
        setTold((before) =>
          new Map(before).set(attachment_id, { sent_bytes, total_bytes, readsAsked: asked() }),
        ),
      ),
    [asked],
  );
  return useCallback(
    (attachment) => {
      const progress = told.get(attachment.attachment_id);
      if (progress === undefined) return undefined;
      if (attachment.pending !== 'in_flight' && answered > progress.readsAsked) return undefined;
      return { sent_bytes: progress.sent_bytes, total_bytes: progress.total_bytes };
    },
    [told, answered],
  );
}

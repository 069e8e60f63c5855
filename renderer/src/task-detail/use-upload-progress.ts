// The uploads on their way, as main tells them (a few times a second while an
// upload's body is sent): the bytes sent of the whole, per attachment id. Only
// while the panel is on show: an upload told before it opened is told again
// with its next chunks.
import { useEffect, useState } from 'react';
import { subscribe } from '../bridge/svc';

export interface UploadProgress {
  sent_bytes: number;
  total_bytes: number;
}

export function useUploadProgress(): ReadonlyMap<string, UploadProgress> {
  const [progress, setProgress] = useState<ReadonlyMap<string, UploadProgress>>(new Map());
  useEffect(
    () =>
      subscribe('attachment:upload-progress', ({ attachment_id, sent_bytes, total_bytes }) =>
        setProgress((before) => new Map(before).set(attachment_id, { sent_bytes, total_bytes })),
      ),
    [],
  );
  return progress;
}

// The task attachments the emulator keeps (gaps.md "Attachments"): records
// and their bytes, in creation order, removed with their task. Kept apart from
// EmulatorStore: the bytes are the only large thing the emulator holds.
import type { EmulatorStore } from '../store';
import type { ScanSwitch } from './malware-scan';
import { UploadReadHold } from './upload-read-hold';

/** An attachment's stored fields; `org_id` and `project_id` are its task's, read when it is served. */
export interface AttachmentRecord {
  attachment_id: string;
  task_id: string;
  file_name: string;
  content_type: string;
  size_bytes: number;
  sha256: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export class AttachmentStore {
  readonly records = new Map<string, AttachmentRecord>();
  private readonly contents = new Map<string, Buffer>();
  private sequence = 0;
  /** Successful uploads (replays of an Idempotency-Key not counted). */
  created = 0;
  readonly scan: ScanSwitch = { available: true, retryAfterSeconds: 30 };
  /** A test's hold on reading upload bodies (none unless set). */
  readonly readHold = new UploadReadHold();

  constructor(private readonly store: EmulatorStore) {
    // gaps.md: deleting a task deletes its attachments.
    store.onTaskChange((change) => {
      if (change.kind !== 'delete') return;
      for (const record of this.ofTask(change.entry.record.task_id)) this.remove(record.attachment_id);
    });
  }

  /** A new id that sorts after every earlier one (ties on created_at keep upload order). */
  private nextId(): string {
    this.sequence += 1;
    return `att_${this.sequence.toString(36).padStart(10, '0')}`;
  }

  add(
    fields: Omit<AttachmentRecord, 'attachment_id' | 'created_at' | 'updated_at'>,
    bytes: Buffer,
  ): AttachmentRecord {
    const now = this.store.nowIso();
    const record: AttachmentRecord = {
      attachment_id: this.nextId(),
      ...fields,
      created_at: now,
      updated_at: now,
    };
    this.records.set(record.attachment_id, record);
    // A copy: the request's body is let go.
    this.contents.set(record.attachment_id, Buffer.from(bytes));
    this.created += 1;
    // Counted with every kind's creates too (store.creates), which the control API reports per collection.
    this.store.creates.task_attachments += 1;
    this.store.touch();
    return record;
  }

  replace(record: AttachmentRecord): void {
    this.records.set(record.attachment_id, record);
    this.store.touch();
  }

  remove(attachmentId: string): void {
    this.records.delete(attachmentId);
    this.contents.delete(attachmentId);
    this.store.touch();
  }

  content(attachmentId: string): Buffer {
    const bytes = this.contents.get(attachmentId);
    if (!bytes) throw new Error(`no content for ${attachmentId}`);
    return bytes;
  }

  ofTask(taskId: string): AttachmentRecord[] {
    return [...this.records.values()].filter((record) => record.task_id === taskId);
  }
}

// Task attachments over HTTP (gaps.md "Attachments", the contract's upload
// rules): every refusal with its status and problem type, the limit at its
// edge, the malware scan and its switch, idempotent uploads, Range on content,
// and the record, list, rename and delete with their ETags.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, test } from 'vitest';
import { problemTypeName } from '../protocol/problem';
import { taskAttachmentSchema } from '../protocol/task-attachment';
import { UNPACKED_LIMIT_BYTES, UPLOAD_LIMIT_BYTES } from '../protocol/upload-rules';
import { type AnyBody, type ApiAnswer, callApi } from './emulator-http';
import type { RunningEmulator } from './start';
import { emulatorPerFile } from './testing/emulator-per-file';
import { EICAR_SIGNATURE } from './uploads/malware-scan';
import { windowsExecutable } from '../protocol/testing/upload-samples';
import { zipOf } from '../protocol/testing/zip-fixture';

let emulator: RunningEmulator;
emulatorPerFile({ seedTasks: 20 }, (started) => (emulator = started));

let taskId = '';
beforeAll(() => {
  taskId = emulator.control.tasks()[0]!.task_id;
});

interface Upload {
  name: string;
  bytes: Uint8Array | string;
  /** The file part's Content-Type; none: application/octet-stream (declares nothing). */
  type?: string;
  key?: string;
  token?: string;
  task?: string;
}

async function upload(file: Upload) {
  const form = new FormData();
  form.set('task_id', file.task ?? taskId);
  const bytes = typeof file.bytes === 'string' ? new TextEncoder().encode(file.bytes) : file.bytes;
  form.set('file', new Blob([bytes], file.type ? { type: file.type } : {}), file.name);
  return callApi(emulator, 'POST', '/v1/task-attachments', {
    form,
    ...(file.token !== undefined ? { token: file.token } : {}),
    ...(file.key ? { headers: { 'idempotency-key': file.key } } : {}),
  });
}

const PNG = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
]);

const ELF = Uint8Array.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
const MACH_O = Uint8Array.from([0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1, 3, 0, 0, 0]);
const HTML = '<!DOCTYPE html>\n<html><body><script>alert(1)</script></body></html>';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
const XML = '<?xml version="1.0"?>\n<note>hello</note>';

const CONTENT_TYPES = (extra: string) =>
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  `<Default Extension="xml" ContentType="application/xml"/>${extra}</Types>`;
const docx = (extraEntries: { name: string; content: string }[] = [], contentTypes = CONTENT_TYPES('')) =>
  zipOf([
    { name: '[Content_Types].xml', content: contentTypes },
    { name: 'word/document.xml', content: '<w:document/>' },
    ...extraEntries,
  ]);

const problemOf = (body: AnyBody) => problemTypeName(String(body.type));

describe('refused uploads, judged by the bytes', () => {
  test.each([
    [
      'a Windows executable by its name',
      'setup.exe',
      windowsExecutable(),
      undefined,
      'upload-type-not-allowed',
    ],
    [
      'a Windows executable without a name that says so',
      'setup',
      windowsExecutable(),
      undefined,
      'upload-type-not-allowed',
    ],
    ['a Windows executable named .png', 'cat.png', windowsExecutable(), undefined, 'upload-type-mismatch'],
    ['an ELF executable without an extension', 'tool', ELF, undefined, 'upload-type-not-allowed'],
    ['a Mach-O executable named .pdf', 'report.pdf', MACH_O, undefined, 'upload-type-mismatch'],
    ['a shell script by its name', 'run.sh', 'echo hi\n', undefined, 'upload-type-not-allowed'],
    [
      'a script by its #! line, without an extension',
      'run',
      '#!/bin/sh\necho hi\n',
      undefined,
      'upload-type-not-allowed',
    ],
    [
      'a script by its #! line, named .txt',
      'notes.txt',
      '#!/bin/sh\necho hi\n',
      undefined,
      'upload-type-mismatch',
    ],
    ['a batch file', 'go.bat', '@echo off\r\n', undefined, 'upload-type-not-allowed'],
    ['a PowerShell script', 'go.ps1', 'Write-Host hi', undefined, 'upload-type-not-allowed'],
    ['JavaScript', 'app.js', 'alert(1)', undefined, 'upload-type-not-allowed'],
    ['HTML by its name', 'page.html', HTML, undefined, 'upload-type-not-allowed'],
    ['HTML by its bytes, without an extension', 'page', HTML, undefined, 'upload-type-not-allowed'],
    ['HTML named .txt', 'page.txt', HTML, undefined, 'upload-type-mismatch'],
    ['HTML declared text/html', 'page.txt', 'hello', 'text/html', 'upload-type-not-allowed'],
    ['SVG by its name', 'logo.svg', SVG, undefined, 'upload-type-not-allowed'],
    ['SVG named .png', 'logo.png', SVG, undefined, 'upload-type-mismatch'],
    ['XML by its name', 'data.xml', XML, undefined, 'upload-type-not-allowed'],
    ['XML by its bytes, without an extension', 'data', XML, undefined, 'upload-type-not-allowed'],
    ['a macro-enabled Word file by its name', 'letter.docm', docx(), undefined, 'upload-type-not-allowed'],
    [
      'a .docx holding a VBA project',
      'letter.docx',
      docx([{ name: 'word/vbaProject.bin', content: 'VBA' }]),
      undefined,
      'upload-type-not-allowed',
    ],
    [
      'a .docx whose (deflated) content types say macro-enabled',
      'letter.docx',
      docx(
        [],
        CONTENT_TYPES(
          '<Override PartName="/word/document.xml" ContentType="application/vnd.ms-word.document.macroEnabled.main+xml"/>',
        ),
      ),
      undefined,
      'upload-type-not-allowed',
    ],
    [
      'a zip holding an executable by its name',
      'bundle.zip',
      zipOf([
        { name: 'docs/readme.txt', content: 'hi' },
        { name: 'bin/setup.exe', content: 'MZ' },
      ]),
      undefined,
      'upload-type-not-allowed',
    ],
    [
      'a zip holding an ELF executable named .txt (deflated)',
      'bundle.zip',
      zipOf([{ name: 'readme.txt', content: ELF }]),
      undefined,
      'upload-type-not-allowed',
    ],
    [
      'a zip holding a macro-enabled Excel file',
      'bundle.zip',
      zipOf([{ name: 'budget.xlsm', content: 'PK', deflate: false }]),
      undefined,
      'upload-type-not-allowed',
    ],
    ['a file type not on the list', 'movie.mkv', 'x', undefined, 'upload-type-not-allowed'],
    ['a PNG named .jpg', 'photo.jpg', PNG, undefined, 'upload-type-mismatch'],
    ['a PNG declared image/jpeg', 'photo.png', PNG, 'image/jpeg', 'upload-type-mismatch'],
    [
      'a .txt that is not UTF-8',
      'latin1.txt',
      Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      undefined,
      'upload-type-mismatch',
    ],
    ['a .zip that is not a zip', 'bundle.zip', 'just text', undefined, 'upload-type-mismatch'],
  ])('%s is 415', async (_what, name, bytes, type, problem) => {
    const answer = await upload({ name, bytes, ...(type ? { type } : {}) });
    expect(answer.status).toBe(415);
    expect(answer.headers.get('content-type')).toContain('application/problem+json');
    expect(problemOf(answer.body)).toBe(problem);
    // The contract: the detail lists the allowed types.
    expect(answer.body.detail).toContain('Allowed types: PNG image (.png)');
    expect(answer.body.errors?.[0]?.allowed).toContain('ZIP archive (.zip)');
  });

  test('nothing refused was stored', () => {
    expect(emulator.control.attachments().filter((a) => a.task_id === taskId)).toEqual([]);
  });

  test('a zip whose directory unpacks to over ten times the limit is 413, its entries never inflated', async () => {
    const bomb = zipOf([
      { name: 'a.txt', content: 'zeros', claimedSize: UNPACKED_LIMIT_BYTES / 2 },
      { name: 'b.txt', content: 'zeros', claimedSize: UNPACKED_LIMIT_BYTES / 2 + 1 },
    ]);
    const answer = await upload({ name: 'bomb.zip', bytes: bomb });
    expect(answer.status).toBe(413);
    expect(problemOf(answer.body)).toBe('upload-too-large');
    expect(answer.body.detail).toContain('25 MB');
    // Exactly ten times is not over it.
    const full = zipOf([{ name: 'a.txt', content: 'zeros', claimedSize: UNPACKED_LIMIT_BYTES }]);
    expect((await upload({ name: 'full.zip', bytes: full })).status).toBe(201);
  });

  test('the EICAR test file is 422 upload-rejected, alone or inside a zip', async () => {
    const alone = await upload({ name: 'eicar.txt', bytes: EICAR_SIGNATURE });
    expect(alone.status).toBe(422);
    expect(problemOf(alone.body)).toBe('upload-rejected');
    const zipped = await upload({
      name: 'eicar.zip',
      bytes: zipOf([{ name: 'eicar.com.txt', content: EICAR_SIGNATURE }]),
    });
    expect(zipped.status).toBe(422);
    expect(problemOf(zipped.body)).toBe('upload-rejected');
  });

  test('with the scan switched off, an upload is 503 upload-rejected with Retry-After, and goes through once it is back', async () => {
    emulator.control.setMalwareScan(false, 7);
    try {
      const answer = await upload({ name: 'later.txt', bytes: 'hello', key: 'scan-off-1' });
      expect(answer.status).toBe(503);
      expect(problemOf(answer.body)).toBe('upload-rejected');
      expect(answer.headers.get('retry-after')).toBe('7');
      // The type rules still answer first: a refused type is 415 whatever the scan.
      expect((await upload({ name: 'x.exe', bytes: 'MZ' })).status).toBe(415);
    } finally {
      emulator.control.setMalwareScan(true);
    }
    // The same key again: the 503 kept nothing, so this is the first upload.
    const again = await upload({ name: 'later.txt', bytes: 'hello', key: 'scan-off-1' });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  test('the control API switches the scan too', async () => {
    const put = (body: unknown) =>
      fetch(`${emulator.baseUrl}/_emulator/malware-scan`, {
        method: 'PUT',
        headers: { 'x-emulator-admin': emulator.adminSecret, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await put({ available: false, retry_after_seconds: 3 })).status).toBe(200);
    const answer = await upload({ name: 'later.txt', bytes: 'hello' });
    expect([answer.status, answer.headers.get('retry-after')]).toEqual([503, '3']);
    expect((await put({ available: true })).status).toBe(200);
    expect((await upload({ name: 'later.txt', bytes: 'hello' })).status).toBe(201);
  });
});

describe('the form', () => {
  test('an upload needs task_id, one file part and a file name of 1..255 characters; the task must be readable', async () => {
    const long = await upload({ name: `${'n'.repeat(252)}.txt`, bytes: 'x' });
    expect([long.status, problemOf(long.body)]).toEqual([422, 'validation']);
    expect(long.body.errors?.[0]?.loc).toEqual(['body', 'file_name']);
    expect((await upload({ name: `${'n'.repeat(251)}.txt`, bytes: 'x' })).status).toBe(201);
    expect((await upload({ name: 'a.txt', bytes: 'x', task: 'tsk_missing' })).status).toBe(404);
    // A name as a person writes it: non-ASCII, quotes, spaces, kept as sent.
    const named = await upload({ name: 'Résumé "final" 日本 (2).txt', bytes: 'x' });
    expect([named.status, named.body.file_name]).toEqual([201, 'Résumé "final" 日本 (2).txt']);
    const json = await callApi(emulator, 'POST', '/v1/task-attachments', { body: { task_id: taskId } });
    expect([json.status, problemOf(json.body)]).toEqual([422, 'validation']);
    // Only the upload reads multipart: another route still answers it 415.
    const elsewhere = await fetch(`${emulator.baseUrl}/v1/task-comments`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.tokens.live}` },
      body: new FormData(),
    });
    expect(elsewhere.status).toBe(415);
  });
});

describe('the 25 MB limit', () => {
  test('a file of exactly 25 MB is accepted; one byte more is 413 upload-too-large naming the limit', async () => {
    const atLimit = new Uint8Array(UPLOAD_LIMIT_BYTES).fill(0x61);
    const accepted = await upload({ name: 'big.txt', bytes: atLimit });
    expect(accepted.status).toBe(201);
    expect(accepted.body.size_bytes).toBe(UPLOAD_LIMIT_BYTES);
    const over = new Uint8Array(UPLOAD_LIMIT_BYTES + 1).fill(0x61);
    const refused = await upload({ name: 'big.txt', bytes: over });
    expect(refused.status).toBe(413);
    expect(problemOf(refused.body)).toBe('upload-too-large');
    expect(refused.body.detail).toContain(`25 MB (${UPLOAD_LIMIT_BYTES} bytes)`);
  }, 60_000);

  test('a body far over the limit is read to its end and refused 413, not cut off', async () => {
    const answer = await upload({
      name: 'huge.txt',
      bytes: new Uint8Array(UPLOAD_LIMIT_BYTES * 2).fill(0x61),
    });
    expect(answer.status).toBe(413);
    expect(problemOf(answer.body)).toBe('upload-too-large');
  }, 60_000);
});

describe('idempotent uploads', () => {
  test('the same upload sent twice with one Idempotency-Key makes exactly one attachment', async () => {
    const task = emulator.control.tasks()[1]!.task_id;
    const first = await upload({ task, name: 'once.png', bytes: PNG, type: 'image/png', key: 'upload-once' });
    // A new FormData: a new multipart boundary, the same upload.
    const second = await upload({
      task,
      name: 'once.png',
      bytes: PNG,
      type: 'image/png',
      key: 'upload-once',
    });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.attachment_id).toBe(first.body.attachment_id);
    expect(emulator.control.attachments().filter((a) => a.task_id === task)).toHaveLength(1);
    // The key on another file is a different request.
    const other = await upload({ task, name: 'other.png', bytes: PNG, key: 'upload-once' });
    expect(other.status).toBe(422);
    expect(problemOf(other.body)).toBe('idempotency-key-reused');
  });
});

describe('an attachment as a resource', () => {
  let attachmentId = '';
  const bytes = new TextEncoder().encode('0123456789abcdefghijklmnopqrstuvwxyz\n'.repeat(100));
  const sha256 = createHash('sha256').update(bytes).digest('hex');

  beforeAll(async () => {
    const created = await upload({ name: 'kept.txt', bytes, type: 'text/plain' });
    expect(created.status).toBe(201);
    attachmentId = String(created.body.attachment_id);
  });

  test('the upload answers the record with its ETag and Location, in the assumed shape', async () => {
    const read = await callApi(emulator, 'GET', `/v1/task-attachments/${attachmentId}`);
    expect(read.status).toBe(200);
    const record = taskAttachmentSchema.parse(read.body);
    expect(record).toMatchObject({
      task_id: taskId,
      org_id: emulator.orgId,
      file_name: 'kept.txt',
      content_type: 'text/plain',
      size_bytes: bytes.length,
      sha256,
      created_by: emulator.me.username,
    });
    const etag = read.headers.get('etag')!;
    expect(
      (
        await callApi(emulator, 'GET', `/v1/task-attachments/${attachmentId}`, {
          headers: { 'if-none-match': etag },
        })
      ).status,
    ).toBe(304);
  });

  test('content: whole with its sha256 as ETag, a range 206, resumed from an offset, 416 past the end', async () => {
    const path = `${emulator.baseUrl}/v1/task-attachments/${attachmentId}/content`;
    const get = (headers: Record<string, string> = {}) =>
      fetch(path, { headers: { authorization: `Bearer ${emulator.tokens.live}`, ...headers } });
    const whole = await get();
    expect(whole.status).toBe(200);
    expect(whole.headers.get('etag')).toBe(`"${sha256}"`);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    expect(whole.headers.get('content-type')).toContain('text/plain');
    expect(new Uint8Array(await whole.arrayBuffer())).toEqual(bytes);

    const part = await get({ range: 'bytes=10-19' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 10-19/${bytes.length}`);
    expect(new TextDecoder().decode(await part.arrayBuffer())).toBe('abcdefghij');

    // A download cut at 1000 bytes resumes from there, and the two halves hash to the ETag.
    const head = bytes.subarray(0, 1000);
    const rest = await get({ range: 'bytes=1000-', 'if-range': `"${sha256}"` });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes 1000-${bytes.length - 1}/${bytes.length}`);
    const joined = Buffer.concat([head, new Uint8Array(await rest.arrayBuffer())]);
    expect(createHash('sha256').update(joined).digest('hex')).toBe(sha256);

    const suffix = await get({ range: 'bytes=-4' });
    expect([suffix.status, suffix.headers.get('content-range')]).toEqual([
      206,
      `bytes ${bytes.length - 4}-${bytes.length - 1}/${bytes.length}`,
    ]);

    // If-Range naming other content: the whole body, so a resume never joins two versions.
    const stale = await get({ range: 'bytes=1000-', 'if-range': '"0000"' });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(bytes.length);

    const past = await get({ range: `bytes=${bytes.length}-` });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe(`bytes */${bytes.length}`);
    expect(past.headers.get('content-type')).toContain('application/problem+json');

    expect((await get({ 'if-none-match': `"${sha256}"` })).status).toBe(304);
  });

  test('a download cut mid-body resumes with Range from what arrived, and hashes to the ETag', async () => {
    const path = `/v1/task-attachments/${attachmentId}/content`;
    emulator.control.faults.dropConnections(1, { pathPrefix: path });
    const response = await fetch(emulator.baseUrl + path, {
      headers: { authorization: `Bearer ${emulator.tokens.live}` },
    });
    const etag = response.headers.get('etag')!;
    const received: Uint8Array[] = [];
    const reader: ReadableStreamDefaultReader<Uint8Array> = response.body!.getReader();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received.push(value);
        }
      })(),
    ).rejects.toThrow();
    const head = Buffer.concat(received);
    expect(head.length).toBeGreaterThan(0);
    expect(head.length).toBeLessThan(bytes.length);
    const rest = await fetch(emulator.baseUrl + path, {
      headers: {
        authorization: `Bearer ${emulator.tokens.live}`,
        range: `bytes=${head.length}-`,
        'if-range': etag,
      },
    });
    expect(rest.status).toBe(206);
    const whole = Buffer.concat([head, new Uint8Array(await rest.arrayBuffer())]);
    expect(`"${createHash('sha256').update(whole).digest('hex')}"`).toBe(etag);
  });

  test('the list per task pages with page ETags, and the organization list holds it too', async () => {
    const list = await callApi(emulator, 'GET', `/v1/task-attachments?task_id=${taskId}&limit=1`);
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(1);
    const etag = list.headers.get('etag')!;
    const again = await callApi(emulator, 'GET', `/v1/task-attachments?task_id=${taskId}&limit=1`, {
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiAnswer = await callApi(
        emulator,
        'GET',
        `/v1/task-attachments?task_id=${taskId}&limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      ids.push(...(page.body.data ?? []).map((a) => String(a.attachment_id)));
      cursor = page.body.next_cursor ?? null;
    } while (cursor !== null);
    expect(ids).toContain(attachmentId);
    expect(new Set(ids).size).toBe(ids.length);
    const org = await callApi(emulator, 'GET', `/v1/task-attachments?org_id=${emulator.orgId}&limit=1000`);
    expect(org.body.data?.map((a) => a.attachment_id)).toEqual(expect.arrayContaining(ids));
    expect((await callApi(emulator, 'GET', '/v1/task-attachments')).status).toBe(422);
    expect((await callApi(emulator, 'GET', '/v1/task-attachments?task_id=tsk_missing')).status).toBe(404);
  });

  test('rename and delete need the current ETag; a rename is held to the bytes', async () => {
    const path = `/v1/task-attachments/${attachmentId}`;
    const read = await callApi(emulator, 'GET', path);
    const etag = read.headers.get('etag')!;
    const patch = (body: unknown, ifMatch: string) =>
      callApi(emulator, 'PATCH', path, {
        body,
        contentType: 'application/merge-patch+json',
        headers: { 'if-match': ifMatch },
      });
    expect((await patch({ file_name: 'renamed.txt' }, '"stale"')).status).toBe(412);
    const toExe = await patch({ file_name: 'kept.exe' }, etag);
    expect([toExe.status, problemOf(toExe.body)]).toEqual([415, 'upload-type-not-allowed']);
    const toPng = await patch({ file_name: 'kept.png' }, etag);
    expect([toPng.status, problemOf(toPng.body)]).toEqual([415, 'upload-type-mismatch']);
    expect((await patch({ file_name: '' }, etag)).status).toBe(422);
    const renamed = await patch({ file_name: 'kept.md' }, etag);
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ file_name: 'kept.md', content_type: 'text/markdown' });
    const newEtag = renamed.headers.get('etag')!;
    expect(newEtag).not.toBe(etag);

    expect((await callApi(emulator, 'DELETE', path, { headers: { 'if-match': etag } })).status).toBe(412);
    expect((await callApi(emulator, 'DELETE', path, { headers: { 'if-match': newEtag } })).status).toBe(204);
    expect((await callApi(emulator, 'GET', path)).status).toBe(404);
    expect((await callApi(emulator, 'GET', `${path}/content`)).status).toBe(404);
  });

  test('deleting a task deletes its attachments', async () => {
    const task = emulator.control.tasks()[2]!.task_id;
    const created = await upload({ task, name: 'gone.txt', bytes: 'bye' });
    expect(created.status).toBe(201);
    emulator.control.peerDelete(task);
    expect(
      (await callApi(emulator, 'GET', `/v1/task-attachments/${String(created.body.attachment_id)}`)).status,
    ).toBe(404);
    expect(emulator.control.attachments().filter((a) => a.task_id === task)).toEqual([]);
  });
});

describe('scopes', () => {
  test('reading needs tasks:read, uploading tasks:write; a test token never uploads', async () => {
    const reader = emulator.control.mintToken({ scopes: ['tasks:read'] }).token;
    const refused = await upload({ name: 'a.txt', bytes: 'a', token: reader });
    expect(refused.status).toBe(403);
    expect(problemOf(refused.body)).toBe('insufficient-scope');
    expect(refused.body.errors?.[0]?.required).toBe('tasks:write');
    const test = await upload({ name: 'a.txt', bytes: 'a', token: emulator.tokens.test });
    expect([test.status, problemOf(test.body)]).toEqual([403, 'test-token-read-only']);
    const list = await callApi(emulator, 'GET', `/v1/task-attachments?task_id=${taskId}`, { token: reader });
    expect(list.status).toBe(200);
    const projectsOnly = emulator.control.mintToken({ scopes: ['projects:read'] }).token;
    const noRead = await callApi(emulator, 'GET', `/v1/task-attachments?task_id=${taskId}`, {
      token: projectsOnly,
    });
    expect([noRead.status, problemOf(noRead.body)]).toEqual([403, 'insufficient-scope']);
  });
});

// Variance mode: the same seed answers the same, every liberty it promises is
// taken over a run, and every answer stays inside the contract (required
// fields there, problems with their status and type, lists with data and
// next_cursor); its faults stop on request while the liberties stay.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterEach, describe, expect, test } from 'vitest';
import { PROBLEM_TYPES } from '../protocol/problem';
import { ManualClock } from './clock';
import { type AnyBody, type ApiAnswer, callApi } from './emulator-http';
import { type RunningEmulator, startEmulator } from './start';
import { LIBERTIES, type Liberty, UNKNOWN_TASK_PRIORITIES, UNKNOWN_TASK_STATUSES } from './variance';

const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.stop()));
});

async function start(seed: number, options: { faults?: boolean; clock?: ManualClock } = {}) {
  const emulator = await startEmulator({
    seedTasks: 60,
    clock: options.clock ?? new ManualClock(),
    variance: {
      seed,
      maxRetryAfterSeconds: 0,
      maxDelayMs: 25,
      ...(options.faults === false ? { faults: false } : {}),
    },
  });
  running.push(emulator);
  return emulator;
}

type Answer = ApiAnswer | { status: 'dropped'; error: string };

async function call(
  emulator: RunningEmulator,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<Answer> {
  try {
    return await callApi(emulator, method, path, {
      headers,
      ...(body !== undefined ? { body, contentType: 'application/merge-patch+json' } : {}),
    });
  } catch (error) {
    return { status: 'dropped', error: String(error) };
  }
}

const REQUIRED: Record<string, readonly string[]> = {
  task: ['task_id', 'title', 'status'],
  section: ['section_id', 'org_id', 'name', 'scope_type', 'scope_id', 'position'],
  sprint: ['sprint_id', 'org_id', 'team_id', 'name', 'start_date', 'end_date'],
  team: ['team_id', 'org_id', 'name'],
  member: ['user_id', 'org_id', 'email', 'username'],
  goal: ['goal_id', 'org_id', 'project_id', 'name'],
  project: ['project_id', 'name'],
  organization: ['org_id', 'name'],
  comment: ['comment_id', 'task_id'],
  history: ['history_id', 'task_id', 'action', 'created_by'],
  attachment: ['attachment_id', 'task_id'],
};

function kindOfPath(path: string): string | null {
  const p = path.split('?')[0] ?? '';
  if (p.startsWith('/v1/tasks')) return 'task';
  if (p.startsWith('/v1/sections')) return 'section';
  if (/^\/v1\/teams\/[^/]+\/sprints/.test(p)) return 'sprint';
  if (p.startsWith('/v1/teams')) return 'team';
  if (p.startsWith('/v1/organization-members') || p === '/v1/me') return 'member';
  if (p.startsWith('/v1/goals')) return 'goal';
  if (p.startsWith('/v1/projects')) return 'project';
  if (p.startsWith('/v1/organizations')) return 'organization';
  if (p.startsWith('/v1/task-comments')) return 'comment';
  if (p.startsWith('/v1/task-history')) return 'history';
  // An attachment's content is its bytes, not a resource.
  if (p.startsWith('/v1/task-attachments')) return p.endsWith('/content') ? null : 'attachment';
  return null;
}

/** What the contract promises of any answer: collects every breach instead of stopping at the first. */
function contractBreaches(method: string, path: string, answer: Answer): string[] {
  if (answer.status === 'dropped') return [];
  const out: string[] = [];
  const where = `${method} ${path} ${answer.status}`;
  if (answer.status === 304) {
    if (answer.text !== '') out.push(`${where}: a 304 with a body`);
    return out;
  }
  const type = answer.headers.get('content-type') ?? '';
  if (answer.status >= 400) {
    const problem = answer.body;
    if (!type.includes('application/problem+json')) out.push(`${where}: not problem+json`);
    for (const member of ['type', 'title', 'status', 'detail', 'instance', 'request_id'])
      if (problem[member] === undefined || problem[member] === null)
        out.push(`${where}: problem without ${member}`);
    if (problem.status !== answer.status) out.push(`${where}: problem status ${String(problem.status)}`);
    const name =
      problem.type === 'about:blank' ? null : /^urn:(svc|tsk):problem:(.+)$/.exec(problem.type ?? '')?.[2];
    if (name !== null && !(PROBLEM_TYPES as readonly (string | undefined)[]).includes(name))
      out.push(`${where}: problem type ${String(problem.type)}`);
    if (answer.status === 429 && answer.headers.get('retry-after') === null)
      out.push(`${where}: 429 without Retry-After`);
    return out;
  }
  const kind = kindOfPath(path);
  const body = answer.body;
  if (method === 'GET' && answer.status === 200 && answer.headers.get('etag') === null)
    out.push(`${where}: no ETag`);
  // Bytes (an attachment's content), not JSON.
  if ((body as AnyBody | null) === null) return out;
  let resources: AnyBody[] = [body];
  if (Array.isArray(body.data)) {
    if (!('next_cursor' in body) || !(body.next_cursor === null || typeof body.next_cursor === 'string'))
      out.push(`${where}: a list without next_cursor`);
    resources = body.data;
  } else if (Array.isArray(body.projects)) {
    resources = (body.projects as AnyBody[]).flatMap((group) => {
      if (!Array.isArray(group.data) || !('next_cursor' in group))
        out.push(`${where}: a group without data or next_cursor`);
      return group.data ?? [];
    });
  }
  if (kind === null) return out;
  for (const resource of resources)
    for (const field of REQUIRED[kind] ?? [])
      if (
        !(field in resource) ||
        (resource[field] === null && !(kind === 'member' && field !== 'user_id' && field !== 'org_id'))
      )
        out.push(`${where}: ${kind} without ${field}`);
  return out;
}

/** A fixed run over every list the client mirrors, with revalidations, writes and bad requests. */
async function workload(
  emulator: RunningEmulator,
  clock: ManualClock,
): Promise<{ answers: Answer[]; breaches: string[] }> {
  const answers: Answer[] = [];
  const breaches: string[] = [];
  const request = async (
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ) => {
    const answer = await call(emulator, method, path, headers, body);
    answers.push(answer);
    breaches.push(...contractBreaches(method, path, answer));
    return answer;
  };
  const org = emulator.orgId;
  const teams = await request('GET', `/v1/teams?org_id=${org}&limit=1000`);
  const teamIds = teams.status === 200 ? (teams.body.data ?? []).map((t) => String(t.team_id)) : [];
  const taskIds = emulator.control
    .tasks()
    .map((t) => t.task_id)
    .sort();
  const lists = [
    `/v1/organizations`,
    `/v1/projects/${org}`,
    `/v1/teams?org_id=${org}`,
    `/v1/organization-members/${org}`,
    `/v1/sections?org_id=${org}`,
    `/v1/goals?org_id=${org}`,
    `/v1/tasks?org_id=${org}&sort_by=created_at&sort_order=asc`,
    ...teamIds.map((id) => `/v1/teams/${id}/sprints`),
    ...taskIds.slice(0, 4).map((id) => `/v1/task-history?task_id=${id}`),
    ...taskIds.slice(0, 4).map((id) => `/v1/task-comments?task_id=${id}`),
  ];
  const etags = new Map<string, string>();
  for (let round = 0; round < 3; round++) {
    for (const list of lists) {
      let cursor: string | null = null;
      for (let guard = 0; guard < 200; guard++) {
        const sep = list.includes('?') ? '&' : '?';
        const path = `${list}${sep}limit=${round === 0 ? 7 : 25}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const known = etags.get(path);
        const answer = await request('GET', path, known ? { 'if-none-match': known } : {});
        if (answer.status === 304) break;
        if (answer.status !== 200) {
          if (answer.status === 400) cursor = null;
          continue;
        }
        etags.set(path, answer.headers.get('etag') ?? '');
        cursor = answer.body.next_cursor ?? null;
        if (cursor === null) break;
      }
    }
    await request('GET', '/v1/me');
    for (const id of taskIds.slice(0, 10)) {
      const read = await request('GET', `/v1/tasks/${id}`);
      if (read.status !== 200) continue;
      const etag = read.headers.get('etag') ?? '';
      await request('GET', `/v1/tasks/${id}`, { 'if-none-match': etag });
      await request('PATCH', `/v1/tasks/${id}`, { 'if-match': etag }, { title: `round ${round} ${id}` });
      await request('PATCH', `/v1/tasks/${id}`, { 'if-match': etag }, { title: `stale ${round}` });
    }
    await request('GET', `/v1/tasks?sort_by=nope`);
    await request('GET', `/v1/tasks?filter[status]=nope`);
    await request('GET', `/v1/tasks?cursor=bm90LWEtY3Vyc29y`);
    await request('GET', `/v1/tasks/tsk_missing`);
  }
  // A cursor held past the requests it may serve, then one held past its age.
  const held = await request('GET', `/v1/tasks?org_id=${org}&limit=3`);
  const heldCursor = held.status === 200 ? String(held.body.next_cursor) : '';
  for (let i = 0; i <= emulator.control.variance!.cursorMaxRequests; i++) await request('GET', '/v1/me');
  await request('GET', `/v1/tasks?org_id=${org}&limit=3&cursor=${heldCursor}`);
  const aged = await request('GET', `/v1/tasks?org_id=${org}&limit=4`);
  clock.advance(emulator.control.variance!.cursorMaxAgeMs + 1000);
  if (aged.status === 200)
    await request('GET', `/v1/tasks?org_id=${org}&limit=4&cursor=${String(aged.body.next_cursor)}`);
  // Attachments last, so that the run before them decides as it did before they existed.
  // Uploads, idempotent, some of which the scan cannot take now (503 with Retry-After).
  for (let i = 0; i < 40; i++) {
    const answer = await uploadAttachment(
      emulator,
      taskIds[i % 4] ?? '',
      `note-${i}.txt`,
      `note ${i}\n`,
      `v-${i}`,
    );
    answers.push(answer);
    breaches.push(...contractBreaches('POST', '/v1/task-attachments', answer));
    if (answer.status === 503 && answer.headers.get('retry-after') === null)
      breaches.push('POST /v1/task-attachments 503: no Retry-After');
  }
  for (const id of taskIds.slice(0, 4)) {
    const list = `/v1/task-attachments?task_id=${id}&limit=3`;
    let cursor: string | null = null;
    for (let guard = 0; guard < 50; guard++) {
      const answer = await request('GET', `${list}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (answer.status !== 200) break;
      cursor = answer.body.next_cursor ?? null;
      if (cursor === null) break;
    }
  }
  // Ranges of content, some of which variance answers whole (RFC 9110 lets a server ignore Range).
  for (const attachment of emulator.control.attachments().slice(0, 12)) {
    const path = `/v1/task-attachments/${attachment.attachment_id}/content`;
    for (const range of ['bytes=2-', 'bytes=0-3']) {
      const answer = await request('GET', path, { range });
      if (typeof answer.status === 'number' && answer.status < 400 && ![200, 206].includes(answer.status))
        breaches.push(`GET ${path} (${range}): ${answer.status}`);
    }
  }
  return { answers, breaches };
}

async function uploadAttachment(
  emulator: RunningEmulator,
  taskId: string,
  name: string,
  content: string,
  key: string,
): Promise<Answer> {
  const form = new FormData();
  form.set('task_id', taskId);
  form.set('file', new Blob([content], { type: 'text/plain' }), name);
  try {
    return await callApi(emulator, 'POST', '/v1/task-attachments', {
      form,
      headers: { 'idempotency-key': key },
    });
  } catch (error) {
    return { status: 'dropped', error: String(error) };
  }
}

const comparable = (answers: Answer[]) =>
  answers.map((a) =>
    a.status === 'dropped'
      ? 'dropped'
      : `${a.status} ${a.headers.get('etag') ?? ''} ${a.text.replace(/"(request_id|trace_id)":"[^"]*"/g, '')}`,
  );

describe('variance mode', () => {
  test('takes every liberty it lists over a run, and every answer stays within the contract', async () => {
    const clock = new ManualClock();
    const emulator = await start(11, { clock });
    const { breaches } = await workload(emulator, clock);
    expect(breaches).toEqual([]);
    const counts = emulator.control.variance!.snapshot().counts;
    const untaken = LIBERTIES.filter((liberty: Liberty) => counts[liberty] === 0);
    expect(untaken).toEqual([]);
    // Unknown statuses and priorities are stored for real on some tasks.
    const tasks = emulator.control.tasks();
    expect(tasks.some((t) => (UNKNOWN_TASK_STATUSES as readonly string[]).includes(t.status))).toBe(true);
    expect(tasks.some((t) => (UNKNOWN_TASK_PRIORITIES as readonly string[]).includes(t.priority ?? ''))).toBe(
      true,
    );
  }, 60_000);

  test('the same seed answers the same run alike; another seed does not', async () => {
    const runs = [];
    for (const seed of [5, 5, 6]) {
      const clock = new ManualClock();
      runs.push(comparable((await workload(await start(seed, { clock }), clock)).answers));
    }
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).not.toEqual(runs[0]);
  }, 60_000);

  test('every read of one version sends the same body: a list item, a single read and servedTask agree', async () => {
    const emulator = await start(3, { faults: false });
    const page = await callApi(
      emulator,
      'GET',
      `/v1/tasks?org_id=${emulator.orgId}&limit=1000&sort_by=created_at`,
    );
    let listed = page.body.data ?? [];
    let cursor = page.body.next_cursor ?? null;
    while (cursor !== null) {
      const next = await callApi(
        emulator,
        'GET',
        `/v1/tasks?org_id=${emulator.orgId}&limit=1000&sort_by=created_at&cursor=${cursor}`,
      );
      listed = [...listed, ...(next.body.data ?? [])];
      cursor = next.body.next_cursor ?? null;
    }
    expect(listed).toHaveLength(emulator.control.taskCount());
    for (const task of listed) {
      const id = String(task.task_id);
      expect(task).toEqual(emulator.control.servedTask(id));
      expect((await callApi(emulator, 'GET', `/v1/tasks/${id}`)).body).toEqual(task);
    }
    // Some fields are absent or null that the record holds, and some unknown fields are there.
    const records = new Map(
      emulator.control.tasks().map((t) => [t.task_id, t as unknown as Record<string, unknown>]),
    );
    expect(listed.some((t) => Object.keys(records.get(String(t.task_id)) ?? {}).some((k) => !(k in t)))).toBe(
      true,
    );
    expect(listed.some((t) => Object.keys(t).some((k) => k.startsWith('x_')))).toBe(true);
  });

  test('with faults off: no 429, 500, dropped answer or refused cursor of this process, the liberties stay', async () => {
    const clock = new ManualClock();
    const emulator = await start(11, { clock });
    emulator.control.variance!.setFaults(false);
    const before = emulator.control.variance!.snapshot().counts;
    const { answers } = await workload(emulator, clock);
    expect(answers.filter((a) => a.status === 'dropped' || a.status === 429 || a.status === 500)).toEqual([]);
    const after = emulator.control.variance!.snapshot().counts;
    for (const fault of [
      'cursor-refused-random',
      'cursor-refused-uses',
      'cursor-refused-age',
      'etag-changed',
      'slow-first-byte',
    ] as const)
      expect(after[fault], fault).toBe(before[fault]);
    // Only the made-up cursor was refused.
    expect(after['cursor-refused-unknown'] - before['cursor-refused-unknown']).toBe(3);
    for (const liberty of [
      'field-absent',
      'field-null',
      'unknown-field',
      'short-page',
      'empty-page',
      'not-modified',
    ] as const)
      expect(after[liberty], liberty).toBeGreaterThan(before[liberty]);
  }, 60_000);

  test('following next_cursor ends every list whatever the seed: an empty page never hands back the place it was asked for', async () => {
    for (let seed = 1; seed <= 25; seed++) {
      const emulator = await start(seed, { faults: false });
      const org = emulator.orgId;
      for (const list of [
        `/v1/teams?org_id=${org}`,
        `/v1/sections?org_id=${org}`,
        `/v1/tasks?org_id=${org}&limit=9`,
      ]) {
        let cursor: string | null = null;
        let pages = 0;
        do {
          const sep = list.includes('?') ? '&' : '?';
          const answer: ApiAnswer = await callApi(
            emulator,
            'GET',
            `${list}${cursor ? `${sep}cursor=${cursor}` : ''}`,
          );
          expect(answer.status).toBe(200);
          if (cursor !== null)
            expect(answer.body.next_cursor, `seed ${seed} ${list}: the same cursor again`).not.toBe(cursor);
          cursor = answer.body.next_cursor ?? null;
          pages += 1;
        } while (cursor !== null && pages < 100);
        expect(cursor, `seed ${seed} ${list}: still going after 100 pages`).toBeNull();
      }
      await emulator.stop();
      running.splice(running.indexOf(emulator), 1);
    }
  }, 60_000);

  test('a cursor of an earlier process is refused as invalid-parameter on cursor, faults or not', async () => {
    const first = await start(8, { faults: false });
    const page = await callApi(first, 'GET', `/v1/tasks?org_id=${first.orgId}&limit=5`);
    const cursor = String(page.body.next_cursor);
    await first.stop();
    running.splice(running.indexOf(first), 1);
    const second = await start(8, { faults: false });
    const refused = await callApi(second, 'GET', `/v1/tasks?org_id=${second.orgId}&limit=5&cursor=${cursor}`);
    expect(refused.status).toBe(400);
    expect(refused.body.type).toMatch(/^urn:(svc|tsk):problem:invalid-parameter$/);
    // errors (and loc) may be left out; where there, they name the cursor.
    const loc = refused.body.errors?.[0]?.loc;
    if (loc !== undefined && loc !== null) expect(loc).toEqual(['query', 'cursor']);
  });

  test('an unknown status or priority the server sent is accepted back; without variance it is a 422', async () => {
    const emulator = await start(4, { faults: false });
    const task = emulator.control.tasks()[0]!;
    const read = await callApi(emulator, 'GET', `/v1/tasks/${task.task_id}`);
    const patched = await callApi(emulator, 'PATCH', `/v1/tasks/${task.task_id}`, {
      body: { status: UNKNOWN_TASK_STATUSES[0], priority: UNKNOWN_TASK_PRIORITIES[1] },
      contentType: 'application/merge-patch+json',
      headers: { 'if-match': read.headers.get('etag') ?? '' },
    });
    expect(patched.status).toBe(200);
    expect(emulator.control.task(task.task_id)).toMatchObject({ status: 'triaged', priority: 'someday' });

    const plain = await startEmulator({ seedTasks: 2 });
    running.push(plain);
    const id = plain.control.tasks()[0]!.task_id;
    const refused = await callApi(plain, 'PATCH', `/v1/tasks/${id}`, {
      body: { status: 'triaged' },
      contentType: 'application/merge-patch+json',
    });
    expect(refused.status).toBe(422);
  });

  test('changeEtags changes every ETag at once, faults off, bodies unchanged; the old one is refused with 412', async () => {
    const emulator = await start(5, { faults: false });
    const id = emulator.control.tasks()[0]!.task_id;
    const first = await callApi(emulator, 'GET', `/v1/tasks/${id}`);
    emulator.control.variance!.changeEtags();
    const later = await callApi(emulator, 'GET', `/v1/tasks/${id}`);
    expect(later.text).toBe(first.text);
    expect(later.headers.get('etag')).not.toBe(first.headers.get('etag'));
    const stale = await callApi(emulator, 'DELETE', `/v1/tasks/${id}`, {
      headers: { 'if-match': first.headers.get('etag') ?? '' },
    });
    expect(stale.status).toBe(412);
  });

  test('an ETag that changed on an unchanged body: If-Match with the old one is 412, with the new one it writes', async () => {
    const clock = new ManualClock();
    const emulator = await start(21, { clock });
    const variance = emulator.control.variance!;
    const id = emulator.control.tasks()[0]!.task_id;
    let first: ApiAnswer | undefined;
    // Read until an answer arrives, then read again until the ETag epoch moves.
    for (let i = 0; i < 2000 && !first; i++) {
      const a = await call(emulator, 'GET', `/v1/tasks/${id}`);
      if (a.status === 200) first = a;
    }
    const startEpoch = variance.snapshot().counts['etag-changed'];
    let later: ApiAnswer | undefined;
    for (let i = 0; i < 5000 && !later; i++) {
      const a = await call(emulator, 'GET', `/v1/tasks/${id}`);
      if (a.status === 200 && variance.snapshot().counts['etag-changed'] > startEpoch) later = a;
    }
    variance.setFaults(false);
    expect(later?.text).toBe(first?.text);
    expect(later?.headers.get('etag')).not.toBe(first?.headers.get('etag'));
    const stale = await callApi(emulator, 'PATCH', `/v1/tasks/${id}`, {
      body: { title: 'with the old tag' },
      contentType: 'application/merge-patch+json',
      headers: { 'if-match': first?.headers.get('etag') ?? '' },
    });
    expect(stale.status).toBe(412);
    const fresh = await callApi(emulator, 'PATCH', `/v1/tasks/${id}`, {
      body: { title: 'with the new tag' },
      contentType: 'application/merge-patch+json',
      headers: { 'if-match': later?.headers.get('etag') ?? '' },
    });
    expect(fresh.status).toBe(200);
  }, 60_000);

  test('a revalidation is answered 304 and logged with the If-None-Match it carried', async () => {
    const emulator = await start(6, { faults: false });
    const id = emulator.control.tasks()[0]?.task_id ?? '';
    const read = await callApi(emulator, 'GET', `/v1/tasks/${id}`);
    const etag = read.headers.get('etag') ?? '';
    const again = await callApi(emulator, 'GET', `/v1/tasks/${id}`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(emulator.control.requests().at(-1)).toMatchObject({ status: 304, ifNoneMatch: etag });
  });

  test('the control API reads the liberties taken and switches faults; 404 without variance mode', async () => {
    const emulator = await start(2);
    const admin = { token: null, headers: { 'x-emulator-admin': emulator.adminSecret } };
    const off = await callApi(emulator, 'POST', '/_emulator/variance', { ...admin, body: { faults: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ seed: 2, faults: false });
    expect(emulator.control.variance!.faults).toBe(false);
    expect((await callApi(emulator, 'GET', '/_emulator/variance', admin)).body).toMatchObject({
      faults: false,
    });

    const plain = await startEmulator({ seedTasks: 1 });
    running.push(plain);
    const missing = await callApi(plain, 'GET', '/_emulator/variance', {
      token: null,
      headers: { 'x-emulator-admin': plain.adminSecret },
    });
    expect(missing.status).toBe(404);
  });
});

describe('npm run emulator -- --variance SEED', () => {
  let child: ChildProcess | undefined;
  afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });

  test('starts in variance mode with the faults as asked, and says so on its first line', async () => {
    const root = join(import.meta.dirname, '..');
    child = spawn(
      join(root, 'node_modules', '.bin', 'tsx'),
      ['emulator/cli.ts', '--seed-tasks', '20', '--variance', '9', '--variance-faults', 'off'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const lines = createInterface({ input: child.stdout as NonNullable<ChildProcess['stdout']> });
    const [line] = (await once(lines, 'line')) as [string];
    const info = JSON.parse(line) as { base_url: string; admin_secret: string; variance: unknown };
    expect(info.variance).toEqual({ seed: 9, faults: false });
    const answer = await fetch(`${info.base_url}/_emulator/variance`, {
      headers: { 'x-emulator-admin': info.admin_secret },
    });
    expect(await answer.json()).toMatchObject({ seed: 9, faults: false });
  }, 30_000);
});

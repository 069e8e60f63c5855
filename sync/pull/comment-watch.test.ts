// The comments of the tasks a person is likely to open offline, kept fresh by
// the hot tier against the emulator into a real SQLite file: their own open
// tasks, their teams' current sprints and what they opened in the last 30 days
// (clock injected), a bounded number per poll, stalest first, 304s when
// unchanged, and no other task's comments.
import { describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import { InstantClock } from './testing/instant-clock';
import { type PullFixture, pullFixturePerTest } from './testing/pull-fixture';

const DAY = 86_400_000;

const setUp = pullFixturePerTest({ seedTasks: 150 });

/** The task ids whose comment lists the engine asked for since the last clear, in order. */
function commentRequests(f: PullFixture) {
  return f.emulator.control
    .requests()
    .filter((r) => r.method === 'GET' && r.path === '/v1/task-comments')
    .map((r) => ({
      taskId: new URLSearchParams(r.query).get('task_id') ?? '',
      ifNoneMatch: r.ifNoneMatch,
      status: r.status,
    }));
}

/**
 * The likely-opened set worked out from the server's data, not the mirror's
 * query: the person's not completed tasks (assigned or created), the tasks of
 * the current sprints of the teams they are on, and `opened`.
 */
function likelySet(f: PullFixture, today: string, opened: readonly string[] = []): Set<string> {
  const me = f.emulator.me.username;
  const myTeams = new Set(
    f.mirror.collections
      .list('teams')
      .filter((t) => t.team_role === 'owner' || t.team_role === 'member')
      .map((t) => t.team_id),
  );
  const current = new Set(
    f.mirror.collections
      .list('sprints')
      .filter(
        (s) =>
          myTeams.has(s.team_id) &&
          s.status !== 'completed' &&
          s.is_active !== false &&
          String(s.start_date) <= today &&
          today <= (typeof s.end_date === 'string' ? s.end_date : '9999-12-31'),
      )
      .map((s) => s.sprint_id),
  );
  const ids = f.emulator.control
    .tasks()
    .filter(
      (t) =>
        (t.status !== 'completed' && (t.assignee === me || t.created_by === me)) ||
        (t.sprint_id !== null && current.has(t.sprint_id)),
    )
    .map((t) => t.task_id);
  return new Set([...ids, ...opened]);
}

/** A task no reason but an opening puts in the set: someone else's, in no sprint. */
function strangersTask(f: PullFixture): string {
  const me = f.emulator.me.username;
  const task = f.emulator.control
    .tasks()
    .find((t) => t.assignee !== me && t.created_by !== me && t.sprint_id === null);
  if (!task) throw new Error('the seed has no task of someone else outside sprints');
  return task.task_id;
}

async function servedComments(f: PullFixture, taskId: string): Promise<unknown[]> {
  const answer = await fetch(`${f.emulator.baseUrl}/v1/task-comments?task_id=${taskId}&limit=1000`, {
    headers: { authorization: `Bearer ${f.emulator.tokens.live}` },
  });
  return ((await answer.json()) as { data: unknown[] }).data;
}

function mirroredComments(mirror: Mirror, taskId: string): unknown[] {
  return mirror.collections.list('task_comments', taskId);
}

const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('comments of the tasks a person is likely to open', () => {
  test('hot polls fetch them a bounded number at a time, stalest first, each once before any again, and no other task', async () => {
    const perPoll = 4;
    const f = await setUp({ engine: { commentWatch: perPoll } });
    await f.engine.pullOnce();
    const likely = likelySet(f, utcDay(Date.now()));
    expect(likely.size).toBeGreaterThan(perPoll * 2);
    // Some are in only through a current sprint of the person's team, not as theirs.
    const me = f.emulator.me.username;
    const sprintOnly = f.emulator.control
      .tasks()
      .filter((t) => likely.has(t.task_id) && t.assignee !== me && t.created_by !== me);
    expect(sprintOnly.length).toBeGreaterThan(0);

    const fetched: string[] = [];
    const polls = Math.ceil(likely.size / perPoll);
    for (let poll = 0; poll < polls; poll++) {
      f.emulator.control.clearRequests();
      await f.engine.pullOnce({ tier: 'hot' });
      const asked = commentRequests(f);
      expect(asked.length, `poll ${poll}`).toBeLessThanOrEqual(perPoll);
      fetched.push(...asked.map((r) => r.taskId));
    }
    // Every likely task once (never-listed ones come before any repeat), and nothing else;
    // the last poll's spare turns went to the stalest again.
    expect(fetched.slice(0, likely.size).sort()).toEqual([...likely].sort());
    const repeats = fetched.length - likely.size;
    expect(fetched.slice(likely.size)).toEqual(fetched.slice(0, repeats));

    // Ready offline: the mirror holds each one's comments as the service lists them.
    for (const taskId of [...likely].slice(0, 5)) {
      expect(mirroredComments(f.mirror, taskId), taskId).toEqual(await servedComments(f, taskId));
    }

    // The next round revalidates the stalest: conditional requests, unchanged lists cost a 304.
    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ tier: 'hot' });
    const again = commentRequests(f);
    expect(again).toHaveLength(perPoll);
    expect(again.map((r) => r.taskId).sort()).toEqual(fetched.slice(repeats, repeats + perPoll).sort());
    expect(again.every((r) => r.ifNoneMatch !== null && r.status === 304)).toBe(true);
  });

  test('a thread that cannot be read is skipped and said, and the watch goes on to the next tasks (issue 27)', async () => {
    const perPoll = 4;
    const f = await setUp({ engine: { commentWatch: perPoll } });
    await f.engine.pullOnce();
    // Every comment list answered in the next poll breaks the contract: its envelope cannot be read.
    f.relay.rewrite = (url, body) =>
      url.startsWith('/v1/task-comments?')
        ? JSON.stringify({ data: { task_id: 'k' }, next_cursor: null })
        : body;
    f.emulator.control.clearRequests();
    f.events.length = 0;

    await f.engine.pullOnce({ tier: 'hot' });

    const broken = commentRequests(f).map((r) => r.taskId);
    expect(broken).toHaveLength(perPoll);
    const skipped = f.events.filter((e) => e.type === 'resource-skipped');
    expect(skipped.map((e) => (e.type === 'resource-skipped' ? e.scope : '')).sort()).toEqual(
      [...broken].sort(),
    );
    expect(skipped[0]).toMatchObject({
      collection: 'task_comments',
      error: { kind: 'invalid-response', operation: 'task-comments.list' },
    });

    // The next poll asks for other tasks: the skipped ones count as checked.
    f.relay.rewrite = null;
    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ tier: 'hot' });
    const next = commentRequests(f).map((r) => r.taskId);
    expect(next).toHaveLength(perPoll);
    expect(next.filter((taskId) => broken.includes(taskId))).toEqual([]);
  });

  test('a comment that breaks the contract is left out and said; the rest of its thread lands (issue 27)', async () => {
    const perPoll = 4;
    const f = await setUp({ engine: { commentWatch: perPoll } });
    await f.engine.pullOnce();
    // Every comment list answered in the next poll ends with a comment without its id, a reply without its id.
    f.relay.rewrite = (url, body) => {
      if (!url.startsWith('/v1/task-comments?')) return body;
      const page = JSON.parse(body) as { data: unknown[] };
      page.data.push({ task_id: 'k', replies: [{ task_id: 'k' }] });
      return JSON.stringify(page);
    };
    f.emulator.control.clearRequests();
    f.events.length = 0;

    await f.engine.pullOnce({ tier: 'hot' });

    const polled = commentRequests(f).map((r) => r.taskId);
    expect(polled).toHaveLength(perPoll);
    expect(f.events.filter((e) => e.type === 'resource-skipped')).toEqual([]);
    const skipped = f.events.flatMap((e) => (e.type === 'item-skipped' ? [e] : []));
    expect(skipped.map((e) => e.scope).sort()).toEqual([...polled].sort());
    expect(skipped[0]).toMatchObject({ collection: 'task_comments', id: null });
    for (const taskId of polled) {
      expect(mirroredComments(f.mirror, taskId), taskId).toEqual(await servedComments(f, taskId));
    }
  });

  test("a task opened (also offline, through the editor's activity refresh) is recorded and its comments kept fresh for 30 days, then no longer", async () => {
    const clock = new InstantClock();
    const f = await setUp({ engine: { clock, commentWatch: 1000 } });
    await f.engine.pullOnce();
    const opened = strangersTask(f);

    // Never opened: not watched.
    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ tier: 'hot' });
    expect(commentRequests(f).map((r) => r.taskId)).not.toContain(opened);
    expect(
      commentRequests(f)
        .map((r) => r.taskId)
        .sort(),
    ).toEqual([...likelySet(f, utcDay(clock.now()))].sort());

    // Opened in the editor while the engine is not running (offline): nothing is fetched, the opening is kept.
    expect(await f.engine.refreshTaskActivity(opened)).toBe(false);
    expect(f.mirror.openings.openedSince(new Date(clock.now() - DAY).toISOString())).toEqual([opened]);

    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ tier: 'hot' });
    expect(commentRequests(f).map((r) => r.taskId)).toContain(opened);
    expect(mirroredComments(f.mirror, opened)).toEqual(await servedComments(f, opened));

    // A new comment by someone else on it, 29 days later, still arrives.
    clock.pass(29 * DAY);
    const peer = await fetch(`${f.emulator.baseUrl}/v1/task-comments`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${f.emulator.tokens.peer}`,
        'content-type': 'application/json',
        'idempotency-key': 'watch-29',
      },
      body: JSON.stringify({ task_id: opened, content: 'Still relevant?' }),
    });
    expect(peer.status).toBe(201);
    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ tier: 'hot' });
    const day29 = commentRequests(f).find((r) => r.taskId === opened);
    expect(day29).toMatchObject({ status: 200 });
    expect(day29?.ifNoneMatch).not.toBeNull();
    expect(mirroredComments(f.mirror, opened)).toEqual(await servedComments(f, opened));

    // Past 30 days it leaves the set; its cached comments stay readable.
    clock.pass(2 * DAY);
    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ tier: 'hot' });
    expect(commentRequests(f).map((r) => r.taskId)).not.toContain(opened);
    expect(mirroredComments(f.mirror, opened).length).toBeGreaterThan(0);
  });

  test('opening a task through the engine records it; opening another forgets openings past the window', async () => {
    const clock = new InstantClock();
    const f = await setUp({ engine: { clock } });
    const [first, second] = f.emulator.control.tasks().map((t) => t.task_id) as [string, string];
    f.engine.openTask(first);
    f.engine.openTask(null);
    clock.pass(31 * DAY);
    f.engine.openTask(second);
    expect(f.mirror.openings.openedSince('1970-01-01T00:00:00.000Z')).toEqual([second]);
  });
});

// One collection's failure never stops the others: each list (a collection,
// one team's sprints) is a unit of its own against the emulator's faults; the
// summary names what failed and why, what needed it is named as skipped, and
// the next poll pulls only what failed.
import { describe, expect, test } from 'vitest';
import { type PullFixture, pullFixturePerTest, serverTaskIds } from './testing/pull-fixture';

const setUp = pullFixturePerTest({ seedTasks: 1500 });

/** The emulator's teams as the token sees them (read over HTTP, not through the engine). */
async function teamIds(f: PullFixture): Promise<string[]> {
  const answer = await fetch(`${f.emulator.baseUrl}/v1/teams?org_id=${f.emulator.orgId}&limit=1000`, {
    headers: { authorization: `Bearer ${f.emulator.tokens.live}` },
  });
  const body = (await answer.json()) as { data: { team_id: string }[] };
  return body.data.map((t) => t.team_id);
}

describe('a collection that keeps failing', () => {
  test('a first sync whose sections always fail still mirrors every task, and the summary names sections and why', async () => {
    const f = await setUp();
    f.emulator.control.faults.serverErrors(10_000, { pathPrefix: '/v1/sections' });

    const summary = await f.engine.pullOnce();

    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');
    expect(summary.completed).toEqual(
      expect.arrayContaining(['organizations', 'me', 'projects', 'teams', 'sprints', 'goals', 'tasks']),
    );
    expect(summary.completed).not.toContain('sections');
    expect(summary.failed).toEqual([
      {
        collection: 'sections',
        scope: '',
        skippedBecause: null,
        attempts: 3,
        error: expect.objectContaining({
          kind: 'problem',
          type: 'internal',
          status: 500,
          operation: 'sections.list',
        }) as unknown,
      },
    ]);
    // Tried again on its own, with backoff: three tries of sections, each retried by the client.
    const sectionRequests = f.emulator.control.requests().filter((r) => r.path === '/v1/sections');
    expect(sectionRequests.length).toBe(9);
  });

  test("a first sync where one team's sprints fail still pulls the other teams' sprints", async () => {
    const f = await setUp();
    const teams = await teamIds(f);
    expect(teams.length).toBeGreaterThan(1);
    const [broken, ...others] = teams as [string, ...string[]];
    f.emulator.control.faults.serverErrors(10_000, { pathPrefix: `/v1/teams/${broken}/sprints` });

    const summary = await f.engine.pullOnce();

    expect(summary.failed.map((c) => [c.collection, c.scope, c.error.status])).toEqual([
      ['sprints', broken, 500],
    ]);
    const sprintTeams = new Set(f.mirror.collections.list('sprints').map((s) => s.team_id));
    for (const team of others) {
      const listed = f.emulator.control
        .requests()
        .some((r) => r.path === `/v1/teams/${team}/sprints` && r.status === 200);
      expect(listed, team).toBe(true);
    }
    expect(sprintTeams.has(broken)).toBe(false);
    expect(sprintTeams.size).toBeGreaterThan(0);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
  });

  test('the next poll retries only the failed unit, and a successful retry clears it', async () => {
    const f = await setUp();
    const [broken] = (await teamIds(f)) as [string];
    f.emulator.control.faults.serverErrors(10_000, { pathPrefix: `/v1/teams/${broken}/sprints` });
    await f.engine.pullOnce();
    f.emulator.control.faults.clear();
    f.emulator.control.clearRequests();

    const retry = await f.engine.pullOnce({ scope: 'failed' });

    expect(retry.failed).toEqual([]);
    // Only the failed list (and /v1/me, which names the organization) was asked.
    const paths = [...new Set(f.emulator.control.requests().map((r) => r.path))].sort();
    expect(paths).toEqual(['/v1/me', `/v1/teams/${broken}/sprints`].sort());
    expect(f.mirror.collections.list('sprints').some((s) => s.team_id === broken)).toBe(true);
    expect(f.mirror.passes.state('tasks', '')?.state).toBe('complete');

    // Nothing failed any more: the next poll is a whole full pull again.
    f.emulator.control.clearRequests();
    await f.engine.pullOnce({ scope: 'failed' });
    expect(f.emulator.control.requests().some((r) => r.path === '/v1/tasks')).toBe(true);
  });

  test('a collection whose dependency failed is named as skipped because of it; the task list goes on', async () => {
    const f = await setUp();
    f.emulator.control.faults.serverErrors(10_000, { pathPrefix: '/v1/teams' });

    const summary = await f.engine.pullOnce();

    expect(summary.failed.map((c) => [c.collection, c.skippedBecause, c.error.status])).toEqual([
      ['teams', null, 500],
      ['sprints', 'teams', 500],
    ]);
    expect(f.emulator.control.requests().some((r) => r.path.endsWith('/sprints'))).toBe(false);
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));

    // The retry pulls teams, then the sprints skipped for them.
    f.emulator.control.faults.clear();
    const retry = await f.engine.pullOnce({ scope: 'failed' });
    expect(retry.failed).toEqual([]);
    expect(retry.completed).toEqual(expect.arrayContaining(['teams', 'sprints']));
    expect(f.mirror.collections.list('sprints').length).toBeGreaterThan(0);
  });

  test('the engine tells the failed collections in its sync-finished summary', async () => {
    const f = await setUp({ seedTasks: 200 });
    f.emulator.control.faults.serverErrors(10_000, { pathPrefix: '/v1/sections' });

    const summary = await f.engine.syncOnce();

    expect(summary.failed_collections.map((c) => c.collection)).toEqual(['sections']);
    const finished = f.events.filter((e) => e.type === 'sync-finished');
    expect(finished).toHaveLength(1);
    expect(finished[0]).toMatchObject({ summary: { failed_collections: [{ collection: 'sections' }] } });
    expect(f.events.some((e) => e.type === 'sync-failed')).toBe(false);
  });
});

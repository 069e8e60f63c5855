// Milestones mirrored against the emulator into a real SQLite file: every
// readable project's list, each its own pass with page ETags (a re-sync is all
// 304s), a change and a deletion by someone else found by the next full pull,
// a deletion only once that project's pass completed, and the headless export.
import { describe, expect, test } from 'vitest';
import { ndjson, runCliInProcess } from '../cli/testing/in-process-cli';
import { type PullFixture, pullFixturePerTest } from './testing/pull-fixture';
import { loadPass } from '../../db/test-mirror';

const setUp = pullFixturePerTest({ seedTasks: 300 });

interface Served {
  milestone_id: string;
  project_id: string;
  name: string;
  [field: string]: unknown;
}

/** Talks to the emulator as the signed-in person, outside the engine (a peer's change, or the truth to compare with). */
async function call(
  f: PullFixture,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const answer = await fetch(`${f.emulator.baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${f.emulator.tokens.live}`,
      ...(body === undefined ? {} : { 'content-type': 'application/merge-patch+json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  return { status: answer.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
}

/** Every project's milestones as the service lists them, by project. */
async function servedMilestones(f: PullFixture): Promise<Map<string, Served[]>> {
  const projects = (await call(f, 'GET', `/v1/projects/${f.emulator.orgId}?limit=1000`)).body as {
    data: { project_id: string }[];
  };
  const byProject = new Map<string, Served[]>();
  for (const { project_id: projectId } of projects.data) {
    const page = (await call(f, 'GET', `/v1/projects/${projectId}/milestones?limit=1000`)).body as {
      data: Served[];
    };
    byProject.set(projectId, page.data);
  }
  return byProject;
}

function milestoneRequests(f: PullFixture) {
  return f.emulator.control
    .requests()
    .filter((r) => r.method === 'GET' && /^\/v1\/projects\/[^/]+\/milestones$/.test(r.path));
}

function byId(a: Readonly<Record<string, unknown>>, b: Readonly<Record<string, unknown>>): number {
  return String(a.milestone_id).localeCompare(String(b.milestone_id));
}

describe('milestones', () => {
  test("the first sync mirrors every readable project's milestones whole, each project its own list", async () => {
    const f = await setUp();
    const summary = await f.engine.pullOnce();
    expect(summary.completed).toContain('milestones');
    const asked = milestoneRequests(f).map((r) => r.path);
    const served = await servedMilestones(f);
    const all = [...served.values()].flat();
    expect(all.length).toBeGreaterThan(3);
    expect([...f.mirror.collections.list('milestones')].sort(byId)).toEqual([...all].sort(byId));
    for (const [projectId, list] of served) {
      expect(f.mirror.collections.ids('milestones', projectId).sort(), projectId).toEqual(
        list.map((m) => m.milestone_id).sort(),
      );
    }
    // One list per project, asked once.
    expect(asked.sort()).toEqual([...served.keys()].map((p) => `/v1/projects/${p}/milestones`).sort());
  });

  test('a re-sync with nothing changed revalidates every project list with its ETag and gets only 304s', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const before = f.mirror.collections.list('milestones');
    f.emulator.control.clearRequests();
    const summary = await f.engine.pullOnce();
    const requests = milestoneRequests(f);
    expect(requests.length).toBeGreaterThan(1);
    expect(requests.every((r) => r.ifNoneMatch !== null && r.status === 304)).toBe(true);
    expect(summary.changes.filter((c) => c.collection === 'milestones')).toEqual([]);
    expect(f.mirror.collections.list('milestones')).toEqual(before);
  });

  test('a milestone changed and one deleted by someone else are found by the next full pull, as changes', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const served = await servedMilestones(f);
    const [projectId, list] = [...served].find(([, l]) => l.length >= 2) as [string, Served[]];
    const [renamed, deleted] = list as [Served, Served];
    const status = renamed.status === 'completed' ? 'open' : 'completed';
    const path = (m: Served) => `/v1/projects/${projectId}/milestones/${m.milestone_id}`;
    expect((await call(f, 'PATCH', path(renamed), { name: 'Renamed elsewhere', status })).status).toBe(200);
    expect((await call(f, 'DELETE', path(deleted))).status).toBe(200);
    const othersBefore = f.mirror.collections.list('milestones').filter((m) => m.project_id !== projectId);

    const summary = await f.engine.pullOnce();

    const changes = summary.changes.filter((c) => c.collection === 'milestones');
    expect(changes.map((c) => [c.kind, c.id]).sort()).toEqual(
      [
        ['deleted', deleted.milestone_id],
        ['updated', renamed.milestone_id],
      ].sort(),
    );
    expect(changes.find((c) => c.kind === 'updated')?.fields.map((x) => x.field)).toEqual(
      expect.arrayContaining(['name', 'status']),
    );
    const mirrored = f.mirror.collections.list('milestones', projectId);
    expect(mirrored.map((m) => m.milestone_id)).not.toContain(deleted.milestone_id);
    expect(mirrored.find((m) => m.milestone_id === renamed.milestone_id)).toMatchObject({
      name: 'Renamed elsewhere',
      status,
    });
    // The other projects' lists were 304s: their milestones are as they were.
    expect(f.mirror.collections.list('milestones').filter((m) => m.project_id !== projectId)).toEqual(
      othersBefore,
    );
  });

  test("a deleted milestone stays while its project's list fails, and goes once that list completes", async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const served = await servedMilestones(f);
    const [projectId, list] = [...served].find(([, l]) => l.length >= 1) as [string, Served[]];
    const gone = list[0] as Served;
    expect(
      (await call(f, 'DELETE', `/v1/projects/${projectId}/milestones/${gone.milestone_id}`)).status,
    ).toBe(200);
    f.emulator.control.faults.serverErrors(10_000, { pathPrefix: `/v1/projects/${projectId}/milestones` });

    const failing = await f.engine.pullOnce();

    expect(failing.failed.map((c) => [c.collection, c.scope])).toEqual([['milestones', projectId]]);
    expect(f.mirror.collections.ids('milestones', projectId)).toContain(gone.milestone_id);

    f.emulator.control.faults.clear();
    const retried = await f.engine.pullOnce({ scope: 'failed' });
    expect(retried.failed).toEqual([]);
    expect(f.mirror.collections.ids('milestones', projectId)).not.toContain(gone.milestone_id);
  });

  test('the milestones of a project no longer listed (deleted, or out of reach) are removed by the next full pull', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    // A project this mirror once read, gone from the project list since.
    const gone = { milestone_id: 'mst_of_a_gone_project', project_id: 'prj_gone', name: 'Left behind' };
    loadPass(f.mirror, 'milestones', [gone], { scope: 'prj_gone', etag: '"gone-page"' });
    const kept = f.mirror.collections.list('milestones').filter((m) => m.project_id !== 'prj_gone');
    f.emulator.control.clearRequests();

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.changes.filter((c) => c.collection === 'milestones')).toEqual([
      expect.objectContaining({ kind: 'deleted', id: gone.milestone_id }),
    ]);
    expect(f.mirror.collections.list('milestones')).toEqual(kept);
    // Nothing was asked of the service for it.
    expect(milestoneRequests(f).some((r) => r.path.includes('prj_gone'))).toBe(false);
  });

  test('export --collection milestones prints each mirrored milestone as sent', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    const { code, stdout, stderr } = await runCliInProcess([
      'export',
      '--db',
      f.file,
      '--collection',
      'milestones',
    ]);
    expect(code, stderr).toBe(0);
    const lines = ndjson(stdout) as Served[];
    expect(lines.sort(byId)).toEqual([...(await servedMilestones(f)).values()].flat().sort(byId));
  });
});

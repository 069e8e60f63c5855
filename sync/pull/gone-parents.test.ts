// Collections listed per parent (sprints per team) against the emulator into a
// real SQLite file: a parent the service lists no more (a team deleted, or one
// the person left) takes its mirrored children with it at the next full pull,
// without asking the service for that parent's list.
import { describe, expect, test } from 'vitest';
import { pullFixturePerTest } from './testing/pull-fixture';
import { loadPass } from '../../db/test-mirror';

const setUp = pullFixturePerTest();

describe('a parent listed no more', () => {
  test('a team gone from the team list takes its mirrored sprints with it, and its list is not asked for', async () => {
    const f = await setUp({ seedTasks: 200 });
    await f.engine.pullOnce();
    // A team this mirror once read, gone from the team list since.
    const gone = {
      sprint_id: 'spr_of_a_gone_team',
      team_id: 'team_gone',
      name: 'Left behind',
      status: 'active',
    };
    loadPass(f.mirror, 'sprints', [gone], { scope: 'team_gone', etag: '"gone-page"' });
    const kept = f.mirror.collections.list('sprints').filter((s) => s.team_id !== 'team_gone');
    expect(kept.length).toBeGreaterThan(0);
    f.emulator.control.clearRequests();

    const summary = await f.engine.pullOnce();

    expect(summary.failed).toEqual([]);
    expect(summary.changes.filter((c) => c.collection === 'sprints')).toEqual([
      expect.objectContaining({ kind: 'deleted', id: gone.sprint_id }),
    ]);
    expect(f.mirror.collections.list('sprints')).toEqual(kept);
    expect(f.emulator.control.requests().some((r) => r.path.includes('team_gone'))).toBe(false);
  });
});

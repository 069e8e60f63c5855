// A re-sync revalidates the stored chain's pages ahead of the walk, but holds
// only so many answered pages the walk has not reached: when every page
// changed, each answer is a whole page kept until the mirror applies it, and
// the mirror is the slow side. Against the emulator over real HTTP, into a
// real mirror file, with the mirror's page writes made slower than the answers.
import { describe, expect, test } from 'vitest';
import { MAX_QUEUED_APPLIES } from './apply-backlog';
import { MAX_PAGES_ASKED_AHEAD } from './chain-walk';
import { MirrorPullStore } from './mirror-pull-store';
import type { PullStore } from './pull-store';
import { SyncEngine } from '../engine/sync-engine';
import { FAST_RUN_POLICY, type PullFixture, pullFixturePerTest, serverTaskIds } from './testing/pull-fixture';

/** 20 pages of 1 000 tasks: many more than the walk may hold ahead. */
const TASKS = 20_000;

/** The whole list walked as one chain: the slots ahead are each walk's. */
const ONE_CHAIN = { taskChains: { maxChains: 1 } };

const setUp = pullFixturePerTest({ seedTasks: TASKS, engine: ONE_CHAIN });

/** Answers of the whole task list's pages (not the person's own tasks) with a page in them. */
function wholeListPagesAnswered(f: PullFixture): number {
  return f.emulator.control.requests().filter((r) => {
    const query = new URLSearchParams(r.query);
    return (
      r.method === 'GET' &&
      r.path === '/v1/tasks' &&
      r.status === 200 &&
      !query.has('filter[assignee]') &&
      query.get('limit') !== '1'
    );
  }).length;
}

describe('pages asked ahead of a re-sync', () => {
  test('when every page changed, the walk holds no more answered pages than its slots ahead, and mirrors every change', async () => {
    const f = await setUp();
    await f.engine.pullOnce();
    // A task in every hundred (by creation, the list's order) changes on the service: every page
    // of the list holds one, so every page is answered whole.
    const edited = f.emulator.control
      .tasks()
      .sort((a, b) => (a.created_at ?? '').localeCompare(b.created_at ?? ''))
      .filter((_, i) => i % 100 === 0)
      .map((task) => task.task_id);
    for (const taskId of edited) f.emulator.control.peerEdit(taskId, { title: `renamed ${taskId}` });
    f.emulator.control.clearRequests();
    let applied = 0;
    /** Answered pages of the whole list not yet applied, at each page write: what the walk held. */
    const held: number[] = [];
    // The mirror's page writes wait 50 ms first: the answers come faster than they go in.
    class SlowTaskPages extends MirrorPullStore {
      override async applyPage(...args: Parameters<PullStore['applyPage']>) {
        const [collection, scope] = args;
        if (collection === 'tasks' && !scope.startsWith('hot:')) {
          held.push(wholeListPagesAnswered(f) - applied);
          await new Promise((resolve) => setTimeout(resolve, 50));
          applied += 1;
        }
        return super.applyPage(...args);
      }
    }
    const engine = new SyncEngine({
      mirror: f.mirror,
      api: f.api,
      me: f.emulator.me,
      pullStore: new SlowTaskPages(f.mirror),
      pullRunPolicy: FAST_RUN_POLICY,
      ...ONE_CHAIN,
    });
    const summary = await engine.pullOnce().finally(() => engine.close());
    expect(held.length).toBeGreaterThanOrEqual(TASKS / 1_000);
    // Held: the pages asked ahead, those the walk took and queued for the mirror, the one being
    // written and the next page, asked as soon as the walk took one.
    expect(Math.max(...held)).toBeLessThanOrEqual(MAX_PAGES_ASKED_AHEAD + MAX_QUEUED_APPLIES + 2);
    const updated = summary.changes.filter((c) => c.collection === 'tasks' && c.kind === 'updated');
    expect(updated.map((c) => c.id).sort()).toEqual([...edited].sort());
    expect(f.mirroredTaskIds().sort()).toEqual(serverTaskIds(f));
    for (const taskId of edited) expect(f.mirror.tasks.get(taskId)?.task.title).toBe(`renamed ${taskId}`);
  }, 120_000);
});

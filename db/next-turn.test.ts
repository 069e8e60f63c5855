import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import type { Mirror } from './mirror';
import { nextTurn, nextTurnFirst, workAhead } from './next-turn';
import { loadTasks, openTestMirrorPerTest, taskJson } from './test-mirror';
import { queueBulkChange } from './tasks/bulk-change';
import { filingCountInSteps } from './tasks/filing-counts';

let mirror: Mirror;
let file: string;
openTestMirrorPerTest((handle) => {
  mirror = handle.mirror;
  file = handle.file;
});

/**
 * Counts the turns of the event loop: an immediate queued while the loop runs its immediates
 * runs on the next turn, after that turn's timers and I/O, so this one runs once a turn.
 */
function loopTurns(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn += 1;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => {
      running = false;
    },
  };
}

/** How many steps ran in each turn that ran one, from the turns the steps saw. */
function stepsPerTurn(turns: readonly number[]): number[] {
  const per = new Map<number, number>();
  for (const turn of turns) per.set(turn, (per.get(turn) ?? 0) + 1);
  return [...per.values()];
}

/** Jobs' steps as they run (name and turn), each job taking `steps` turns of the kind given. */
function stepsSeen() {
  const turns = loopTurns();
  const seen: [string, number][] = [];
  const job = async (name: string, turn: () => Promise<void>, steps: number) => {
    for (let step = 0; step < steps; step++) {
      await turn();
      seen.push([name, turns.now()]);
    }
  };
  /** Waits, a turn at a time, until `count` steps have run. */
  const firstSteps = async (count: number) => {
    while (seen.length < count) await new Promise((turned) => setImmediate(turned));
  };
  return { turns, seen, job, firstSteps };
}

describe('work in steps', () => {
  test('jobs stepping at once take one step a turn of the loop, in the order they asked', async () => {
    const turns = loopTurns();
    const seen: [string, number][] = [];
    const job = async (name: string) => {
      for (let step = 0; step < 4; step++) {
        await nextTurn();
        seen.push([name, turns.now()]);
      }
    };
    await Promise.all([job('a'), job('b'), job('c')]);
    turns.stop();

    expect(seen.map(([name]) => name).join('')).toBe('abcabcabcabc');
    expect(stepsPerTurn(seen.map(([, turn]) => turn))).toEqual(Array(12).fill(1));
  });

  test("a page's steps go ahead of the other jobs' waiting, back to back, and the others go on after", async () => {
    const { turns, seen, job, firstSteps } = stepsSeen();
    // A count and a bulk change step (the keystroke before), then a page is asked after their first steps.
    const others = [job('count', nextTurn, 3), job('bulk', nextTurn, 3)];
    await firstSteps(2);
    await Promise.all([...others, job('page', nextTurnFirst, 4)]);
    turns.stop();

    expect(seen.map(([name]) => name)).toEqual([
      'count',
      'bulk',
      'page',
      'page',
      'page',
      'page',
      'count',
      'bulk',
      'count',
      'bulk',
    ]);
    // Still one step a turn: the loop's timers and I/O run between any two.
    expect(Math.max(...stepsPerTurn(seen.map(([, turn]) => turn)))).toBe(1);
  });

  test("work ahead takes turns with a count's steps (not only once it ends), none while a page steps, and the newest given replaces the last", async () => {
    const { turns, seen, job, firstSteps } = stepsSeen();
    const replaced = workAhead(() => {
      seen.push(['replaced', turns.now()]);
      return 0;
    });
    let left = 4;
    const ahead = workAhead(() => {
      seen.push(['ahead', turns.now()]);
      return --left > 0 ? 0 : null;
    });
    const count = job('count', nextTurn, 4);
    await firstSteps(2);
    await Promise.all([count, replaced, ahead, job('page', nextTurnFirst, 3)]);
    turns.stop();

    // At a million tasks each keystroke's count took every turn between the keys: work done only
    // once none stepped (the order's places a search reads) was never done while a person typed.
    expect(seen.map(([name]) => name)).toEqual([
      'ahead',
      'count',
      'page',
      'page',
      'page',
      'ahead',
      'count',
      'ahead',
      'count',
      'ahead',
      'count',
    ]);
    expect(Math.max(...stepsPerTurn(seen.map(([, turn]) => turn)))).toBe(1);
  });

  test("a bulk change's writes and the sidebar's counts, at once, never share a turn of main's loop", async () => {
    // 60 sections of 25 tasks: the count reads 20 sections (500 tasks) a step, the bulk change writes a chunk a step.
    const tasks = Array.from({ length: 1500 }, (_, i) =>
      taskJson({ title: `Task ${i}`, section_id: `sec_${String(Math.floor(i / 25)).padStart(3, '0')}` }),
    );
    loadTasks(mirror, tasks);
    // The count through a connection of its own, each of its reads seen.
    const db = new Database(file, { readonly: true });
    const turns = loopTurns();
    const stepTurns: number[] = [];
    const read = <T>(work: () => T): T => {
      stepTurns.push(turns.now());
      return work();
    };

    const [outcome, counted] = await Promise.all([
      queueBulkChange(
        mirror,
        { taskIds: tasks.map((task) => task.task_id as string) },
        { kind: 'edit', set: { status: 'completed' }, addTags: [], removeTags: [] },
        { me: 'ada', today: '2026-03-10', onProgress: () => stepTurns.push(turns.now()) },
      ),
      filingCountInSteps(db, read, 'sections', 500),
    ]);
    turns.stop();
    db.close();

    expect(outcome.queued).toBe(1500);
    expect(counted).toHaveLength(60);
    expect(stepTurns.length).toBeGreaterThan(4);
    expect(Math.max(...stepsPerTurn(stepTurns))).toBe(1);
  });
});

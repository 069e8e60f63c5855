// Taking mine on a task a teammate deleted, when the server sent that task
// without its project (the contract lets any field it does not mark required be
// absent or null; the emulator's variance mode does so): found by the chaos
// test (issue 22, seed 4), where the re-create carried the task's goal without
// its project and was refused with 422 'goal ... belongs to another project'.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ManualClock } from '../../emulator/clock';
import { startEmulator } from '../../emulator/start';
import { ndjson, runCliInProcess } from './testing/in-process-cli';

let token = '';

const cli = (...argv: string[]) => runCliInProcess(argv, { env: { SVC_TOKEN: token } });

test('taking mine on a task sent without its project re-creates it in its goal’s project, or without both when that project is archived', async () => {
  // The seed's dates, and so its variance's choices, follow the emulator's day: a fixed day keeps the
  // tasks this test needs (today's day left it without a task of an archived project sent so).
  const emulator = await startEmulator({
    seedTasks: 40,
    seed: 5004,
    variance: { seed: 4, faults: false },
    clock: new ManualClock(Date.parse('2026-11-29T09:00:00Z')),
  });
  const dir = await mkdtemp(join(tmpdir(), 'svc-recreate-'));
  const db = join(dir, 'mirror.db');
  token = emulator.tokens.live;
  const sync = () => cli('sync', '--base-url', emulator.baseUrl, '--db', db, '--once');
  try {
    expect((await sync()).code).toBe(0);
    const archived = new Set(
      ndjson((await cli('export', '--db', db, '--collection', 'projects')).stdout)
        .filter((project) => project.status === 'archived')
        .map((project) => project.project_id),
    );
    // Tasks with a goal that this seed's server sends without a project: one in an open project, one in an archived one.
    const candidates = emulator.control
      .tasks()
      .sort((a, b) => a.task_id.localeCompare(b.task_id))
      .filter((t) => {
        const served = emulator.control.servedTask(t.task_id);
        return t.goal_id !== null && served?.goal_id === t.goal_id && served.project_id == null;
      });
    const open = candidates.find((t) => !archived.has(t.project_id));
    const shelved = candidates.find((t) => archived.has(t.project_id));
    expect(open, 'a task of an open project sent with its goal and without its project').toBeDefined();
    expect(shelved, 'a task of an archived project sent so').toBeDefined();
    const ids = [open?.task_id, shelved?.task_id] as [string, string];

    for (const [i, id] of ids.entries()) {
      expect(
        (await cli('edit', '--db', db, '--task', id, '--set', `title=Mine with its goal ${i}`)).code,
      ).toBe(0);
      emulator.control.peerDelete(id);
    }
    expect((await sync()).code).toBe(1);
    const gone = ndjson((await cli('conflicts', '--db', db)).stdout);
    expect(gone.map((c) => [c.entity_id, c.field])).toEqual(
      expect.arrayContaining(ids.map((id) => [id, '*'])),
    );
    // The archived project and the goal that belongs to it are left out, and the conflict says so.
    const leftOut = gone.find((c) => c.entity_id === ids[1])?.left_out as
      { field: string; id: string; message: string }[] | undefined;
    expect(leftOut?.map((r) => [r.field, r.id])).toEqual([
      ['project_id', shelved?.project_id],
      ['goal_id', shelved?.goal_id],
    ]);
    expect(leftOut?.[0]?.message).toMatch(/is archived; the task is re-created without a project$/);
    expect(leftOut?.[1]?.message).toMatch(
      /belongs to another project; the task is re-created without a goal$/,
    );
    expect(gone.find((c) => c.entity_id === ids[0])?.left_out).toBeUndefined();
    for (const conflict of gone)
      expect(
        (await cli('resolve', '--db', db, '--conflict', String(conflict.conflict_id), '--take', 'mine')).code,
      ).toBe(0);

    const again = await sync();
    expect(again.code, `${again.stderr}\n${(await cli('outbox', '--db', db)).stdout}`).toBe(0);
    expect(emulator.control.tasks().filter((t) => t.title === 'Mine with its goal 0')).toEqual([
      expect.objectContaining({ goal_id: open?.goal_id, project_id: open?.project_id }),
    ]);
    expect(emulator.control.tasks().filter((t) => t.title === 'Mine with its goal 1')).toEqual([
      expect.objectContaining({ goal_id: null, project_id: null }),
    ]);
    expect((await cli('outbox', '--db', db)).stdout).toBe('');
  } finally {
    await emulator.stop();
    await rm(dir, { recursive: true, force: true });
  }
}, 60_000);

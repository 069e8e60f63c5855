// `milestones:list` through the real gate, over a mirror the sync engine filled
// from the emulator: a project's milestones in its order with their progress,
// counted over the mirrored tasks so that an offline filing or completion
// shows at once.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Mirror } from '../../db/mirror';
import type { ApiClient } from '../../sync/api/api-client';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { taskHandlers } from './task-handlers';
import { type GateHarness, gateHarness } from './testing/gate-harness';
import { closePulledMirror, pulledMirror, testAccount } from './testing/test-account';

let emulator: RunningEmulator;
let dir: string;
let mirror: Mirror;
let api: ApiClient;
let harness: GateHarness;
const call: GateHarness['call'] = (channel, input) => harness.call(channel, input);
const value: GateHarness['value'] = (channel, input) => harness.value(channel, input);

beforeAll(async () => {
  emulator = await startEmulator({ seedTasks: 300 });
  ({ dir, mirror, api } = await pulledMirror(emulator, 'milestones-list-'));

  harness = gateHarness();
  const active = testAccount(mirror, emulator.me);
  harness.gate.register(taskHandlers({ active: () => active, emit: () => undefined }));
});

afterAll(() => closePulledMirror(emulator, { dir, mirror, api }));

/** The project with the most milestones, and its milestones as the service lists them. */
async function busiestProject(): Promise<{ projectId: string; served: Record<string, unknown>[] }> {
  let best: { projectId: string; served: Record<string, unknown>[] } | null = null;
  for (const project of mirror.collections.list('projects')) {
    const projectId = String(project.project_id);
    const response = await fetch(`${emulator.baseUrl}/v1/projects/${projectId}/milestones?sort_by=position`, {
      headers: { authorization: `Bearer ${emulator.tokens.live}` },
    });
    const served = ((await response.json()) as { data: Record<string, unknown>[] }).data;
    if (best === null || served.length > best.served.length) best = { projectId, served };
  }
  if (best === null) throw new Error('the seed has no project');
  return best;
}

/** The busiest project and the first milestone `milestones:list` shows of it. */
async function firstMilestoneOfBusiestProject() {
  const { projectId } = await busiestProject();
  const [milestone] = await value('milestones:list', { project_id: projectId });
  if (!milestone) throw new Error('no milestone');
  return { projectId, milestone };
}

/** A task of the project that the mirror files under no milestone. */
function taskUnderNoMilestone(projectId: string) {
  const task = emulator.control
    .tasks()
    .find((t) => t.project_id === projectId && mirror.tasks.get(t.task_id)?.task.milestone_id === null);
  if (!task) throw new Error('no unfiled task of the project');
  return task;
}

describe('milestones:list', () => {
  test("answers a project's milestones in its order with the service's progress, read from the mirror", async () => {
    const { projectId, served } = await busiestProject();
    expect(served.length).toBeGreaterThan(1);
    const listed = await value('milestones:list', { project_id: projectId });
    expect(listed.map((m) => m.milestone_id)).toEqual(served.map((m) => m.milestone_id));
    // Counted over the mirrored tasks, the same as the service counts them.
    expect(listed.map((m) => [m.name, m.status, m.due_date, m.tasks_total, m.tasks_completed])).toEqual(
      served.map((m) => [m.name, m.status, m.due_date, m.tasks_total, m.tasks_completed]),
    );
    expect(listed.some((m) => m.tasks_total > 0)).toBe(true);
  });

  test('a task filed and completed offline moves the progress at once', async () => {
    const { projectId, milestone: target } = await firstMilestoneOfBusiestProject();
    const task = emulator.control
      .tasks()
      .find(
        (t) =>
          t.project_id === projectId && t.milestone_id !== target.milestone_id && t.status !== 'completed',
      );
    if (!task) throw new Error('no task of the project outside the milestone');
    mirror.tasks.edit(task.task_id, { milestone_id: target.milestone_id, status: 'completed' });
    const after = (await value('milestones:list', { project_id: projectId })).find(
      (m) => m.milestone_id === target.milestone_id,
    );
    expect(after).toMatchObject({
      tasks_total: target.tasks_total + 1,
      tasks_completed: target.tasks_completed + 1,
    });
  });

  test('the editor files a task under a milestone and unfiles it (task:edit milestone_id)', async () => {
    const { projectId, milestone: target } = await firstMilestoneOfBusiestProject();
    const task = taskUnderNoMilestone(projectId);
    const filed = await value('task:edit', {
      task_id: task.task_id,
      patch: { milestone_id: target.milestone_id },
    });
    expect(filed.task.milestone_id).toBe(target.milestone_id);
    expect(filed.pending_fields).toContain('milestone_id');
    const shown = async () =>
      (await value('milestones:list', { project_id: projectId })).find(
        (m) => m.milestone_id === target.milestone_id,
      )?.tasks_total;
    expect(await shown()).toBe(target.tasks_total + 1);
    const unfiled = await value('task:edit', { task_id: task.task_id, patch: { milestone_id: null } });
    expect(unfiled.task.milestone_id).toBeNull();
    expect(await shown()).toBe(target.tasks_total);
  });

  test("a milestone's tasks are listed by tasks:filed, under a milestone still waiting to be sent too", async () => {
    const { projectId } = await busiestProject();
    const [served] = await value('milestones:list', { project_id: projectId });
    if (!served || served.tasks_total === 0)
      throw new Error('no milestone with tasks in the busiest project');
    const listed = await value('tasks:filed', { field: 'milestone_id', values: [served.milestone_id] });
    expect(listed.rows.map((row) => row.task_id).sort()).toEqual(
      emulator.control
        .tasks()
        .filter((t) => mirror.tasks.get(t.task_id)?.task.milestone_id === served.milestone_id)
        .map((t) => t.task_id)
        .sort(),
    );
    expect(listed.rows).toHaveLength(served.tasks_total);

    // Offline: a milestone created here and a task filed under its temporary id.
    const { id } = mirror.milestones.create({ name: 'Waiting' }, projectId);
    const task = taskUnderNoMilestone(projectId);
    await value('task:edit', { task_id: task.task_id, patch: { milestone_id: id } });
    const waiting = await value('tasks:filed', { field: 'milestone_id', values: [id] });
    expect(waiting.rows.map((row) => [row.task_id, row.title, row.sync_mark])).toEqual([
      [task.task_id, task.title, 'pending'],
    ]);
    // Unfiled from there (task:edit milestone_id null), it is listed no more.
    await value('task:edit', { task_id: task.task_id, patch: { milestone_id: null } });
    expect((await value('tasks:filed', { field: 'milestone_id', values: [id] })).rows).toEqual([]);
  });

  test('a project without milestones answers an empty list; a bad input is refused', async () => {
    expect(await value('milestones:list', { project_id: 'prj_none' })).toEqual([]);
    const refused = await call('milestones:list', { project_id: '' });
    expect(refused.ok).toBe(false);
  });
});

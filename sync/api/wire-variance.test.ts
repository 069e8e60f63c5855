// Every answer the client reads, from an emulator in variance mode (fields absent
// or null, unknown fields and enum values, former-name problem types), parses
// against the wire schemas: the client's schemas and a server that keeps the
// contract differently from ours agree. Faults are off here; the sync's own
// tests meet them.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../emulator/start';
import { isRefusedCursor } from '../pull/chain-walk';
import type { ListAnswer } from './api-answers';
import { ApiClient } from './api-client';
import { staticCredentials } from './credentials';
import { ProblemError } from './errors';
import {
  goalOperations,
  healthOperation,
  meOperations,
  organizationMemberOperations,
  organizationOperations,
  projectOperations,
  sectionOperations,
  sprintOperations,
  taskCommentOperations,
  taskHistoryOperations,
  taskOperations,
  teamOperations,
  type ListOperation,
} from './operations';

const SEEDS = [1, 7, 42];

async function everyItem<Item, Params>(
  api: ApiClient,
  operation: ListOperation<Item, Params>,
  params: Params,
): Promise<Item[]> {
  const items: Item[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 200; page += 1) {
    const answer: ListAnswer<Item> = await api.listPage(operation, params, { cursor, limit: 25 });
    if (answer.status !== 200) throw new Error(`${operation.name}: unexpected ${answer.status}`);
    items.push(...answer.body.data);
    cursor = answer.body.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error(`${operation.name}: no last page after 200 pages`);
}

describe.each(SEEDS)('variance seed %i', (seed) => {
  let emulator: RunningEmulator;
  let api: ApiClient;

  beforeAll(async () => {
    emulator = await startEmulator({ seedTasks: 60, variance: { seed, faults: false } });
    api = new ApiClient({ baseUrl: emulator.baseUrl, credentials: staticCredentials(emulator.tokens.live) });
  });
  afterAll(async () => {
    await api.close();
    await emulator.stop();
  });

  test('every collection the client mirrors parses, every page of it', async () => {
    const orgId = emulator.orgId;
    await api.read(healthOperation, {});
    const me = await api.read(meOperations.get, {});
    expect(me.status === 200 && me.body.user_id).toBe(emulator.me.user_id);
    expect((await everyItem(api, organizationOperations.list, {})).length).toBeGreaterThan(0);
    expect((await everyItem(api, projectOperations.list, { orgId })).length).toBeGreaterThan(0);
    await everyItem(api, organizationMemberOperations.list, { orgId });
    await everyItem(api, sectionOperations.list, { orgId });
    const teams = await everyItem(api, teamOperations.list, { orgId });
    expect(teams.length).toBeGreaterThan(0);
    for (const team of teams) {
      await api.read(teamOperations.get, { teamId: team.team_id });
      await everyItem(api, sprintOperations.list, { teamId: team.team_id });
    }
    const grouped = await api.read(goalOperations.grouped, { orgId });
    if (grouped.status === 200) {
      for (const group of grouped.body.projects) {
        if (group.next_cursor !== null) {
          await everyItem(api, goalOperations.listInProject, { projectId: group.project_id });
        }
      }
    }
    const tasks = await everyItem(api, taskOperations.list, { orgId });
    expect(tasks).toHaveLength(60);
    for (const task of tasks.slice(0, 5)) {
      await everyItem(api, taskCommentOperations.list, { taskId: task.task_id });
      await everyItem(api, taskHistoryOperations.list, { taskId: task.task_id });
    }
    // Not vacuous: the emulator did take its liberties on what we read.
    const counts = emulator.control.variance?.snapshot().counts;
    expect(counts?.['field-absent']).toBeGreaterThan(0);
    expect(counts?.['field-null']).toBeGreaterThan(0);
    expect(counts?.['unknown-field']).toBeGreaterThan(0);
  });

  test('a refused cursor is the invalid-parameter on cursor however its problem is written', async () => {
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const error = await api
        .listPage(taskOperations.list, { orgId: emulator.orgId }, { cursor: `not-a-cursor-${attempt}` })
        .then(
          () => null,
          (failure: unknown) => failure,
        );
      expect(error).toBeInstanceOf(ProblemError);
      expect(error).toMatchObject({ status: 400, type: 'invalid-parameter' });
      expect(isRefusedCursor(error)).toBe(true);
    }
    const counts = emulator.control.variance?.snapshot().counts;
    expect(counts?.['problem-member-varied']).toBeGreaterThan(0);
  });
});

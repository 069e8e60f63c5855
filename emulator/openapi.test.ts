// `{base_url}/openapi.public.json`: an OpenAPI 3.1 description of what the
// emulator serves, dated with the contract.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { callApi } from './emulator-http';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
beforeAll(async () => {
  emulator = await startEmulator({ seedTasks: 5 });
});
afterAll(async () => {
  await emulator.stop();
});

interface Operation {
  operationId?: string;
  deprecated?: boolean;
  responses: Record<string, unknown>;
}

test('describes the routes it serves, OpenAPI 3.1, info.version the contract date', async () => {
  const answer = await callApi<{
    openapi: string;
    info: { version: string };
    paths: Record<string, Record<string, Operation>>;
  }>(emulator, 'GET', '/openapi.public.json', { token: null });
  expect(answer.status).toBe(200);
  expect(answer.body.openapi).toMatch(/^3\.1\./);
  expect(answer.body.info.version).toBe('2026-09-25');
  const { paths } = answer.body;
  expect(Object.keys(paths['/v1/tasks'] ?? {}).sort()).toEqual(['get', 'post']);
  expect(Object.keys(paths['/v1/tasks/{task_id}'] ?? {}).sort()).toEqual(['delete', 'get', 'patch', 'put']);
  expect(paths['/v1/tasks/{task_id}']?.put?.deprecated).toBe(true);
  expect(paths['/v1/tasks/{task_id}']?.patch?.deprecated).toBeUndefined();
  for (const path of [
    '/v1/health',
    '/v1/me',
    '/v1/tokens',
    '/v1/goals',
    '/v1/task-history',
    '/v1/teams/{team_id}/sprints',
    '/oauth/token',
  ]) {
    expect(paths[path], path).toBeDefined();
  }
  // The writes beyond tasks (gaps.md): every verb of each resource's path.
  const verbs: Record<string, string[]> = {
    '/v1/task-comments/{comment_id}': ['delete', 'get', 'patch'],
    '/v1/task-comments/reply': ['post'],
    '/v1/task-attachments': ['get', 'post'],
    '/v1/task-attachments/{attachment_id}': ['delete', 'get', 'patch'],
    '/v1/task-attachments/{attachment_id}/content': ['get'],
    '/v1/sections/{section_id}': ['delete', 'get', 'patch'],
    '/v1/teams/{team_id}/sprints/{sprint_id}': ['get', 'patch'],
    '/v1/projects/{project_id}/goals/{goal_id}': ['delete', 'get', 'patch', 'put'],
    '/v1/milestones': ['get'],
    '/v1/projects/{project_id}/milestones': ['get', 'post'],
    '/v1/projects/{project_id}/milestones/{milestone_id}': ['delete', 'get', 'patch', 'put'],
    '/v1/projects/{project_id}/milestones/{milestone_id}/tasks/{task_id}': ['delete'],
  };
  for (const [path, methods] of Object.entries(verbs)) {
    expect(Object.keys(paths[path] ?? {}).sort(), path).toEqual(methods);
  }
  expect(paths['/v1/projects/{project_id}/milestones/{milestone_id}']?.put?.deprecated).toBe(true);
  expect(Object.keys(paths).some((p) => p.startsWith('/_emulator'))).toBe(false);
  const ids = Object.values(paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
  expect(new Set(ids).size).toBe(ids.length);
});

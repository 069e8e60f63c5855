import { describe, expect, test } from 'vitest';
import { listPageSchema } from '../../protocol/list-page';
import { taskSchema } from '../../protocol/task';
import { InvalidResponseError } from './errors';
import { formatIssuePath, parseResponseBody } from './response-body';

const pageSchema = listPageSchema(taskSchema);

function failure(text: string): InvalidResponseError {
  try {
    parseResponseBody('tasks.list', 200, pageSchema, text);
  } catch (error) {
    if (error instanceof InvalidResponseError) return error;
    throw error;
  }
  throw new Error('expected the body to be refused');
}

describe('parseResponseBody', () => {
  test('returns the validated body, unknown fields kept', () => {
    const page = parseResponseBody(
      'tasks.list',
      200,
      pageSchema,
      JSON.stringify({
        data: [{ task_id: 'k1', title: 'x', status: 'brand_new', colour: 'red' }],
        next_cursor: null,
      }),
    );
    expect(page.data[0]).toMatchObject({ status: 'brand_new', colour: 'red' });
  });

  test('a missing field is an error naming the operation and the field path', () => {
    const error = failure(
      JSON.stringify({
        data: [
          { task_id: 'k1', title: 'x', status: 's' },
          { title: 'y', status: 's' },
        ],
        next_cursor: null,
      }),
    );
    expect(error.operation).toBe('tasks.list');
    expect(error.path).toBe('data[1].task_id');
    expect(error.message).toContain('tasks.list');
    expect(error.message).toContain('data[1].task_id');
  });

  test('a field of the wrong type is named', () => {
    expect(failure(JSON.stringify({ data: [], next_cursor: 42 })).path).toBe('next_cursor');
  });

  test.each([
    ['truncated JSON', '{"data":[{"task_id":"k1"'],
    ['an HTML page', '<html>oops</html>'],
    ['an empty body', ''],
  ])('%s is an error about the body, not a crash', (_name, text) => {
    const error = failure(text);
    expect(error.path).toBe('(body)');
    expect(error.status).toBe(200);
  });

  test('the message never quotes the values received', () => {
    const error = failure(
      JSON.stringify({ data: [{ task_id: 'svc_live_TOPSECRET', title: 5, status: 's' }], next_cursor: null }),
    );
    expect(error.message).not.toContain('TOPSECRET');
  });
});

test.each([
  [['data', 3, 'task_id'], 'data[3].task_id'],
  [['replies', 0, 'replies', 1, 'comment_id'], 'replies[0].replies[1].comment_id'],
  [[], '(body)'],
  [[0], '[0]'],
] as const)('formats the path %j as %s', (path, text) => {
  expect(formatIssuePath(path)).toBe(text);
});

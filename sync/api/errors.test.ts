import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { isRefusedCursor } from '../pull/chain-walk';
import {
  ProblemError,
  SignedOutError,
  parseRetryAfter,
  problemErrorFromAnswer,
  redactSecrets,
} from './errors';

function answer(status: number, body: unknown, extra: { retryAfter?: number } = {}) {
  return {
    status,
    contentType: 'application/problem+json',
    text: typeof body === 'string' ? body : JSON.stringify(body),
    requestId: 'req-header',
    retryAfter: extra.retryAfter ?? null,
  };
}

describe('problemErrorFromAnswer', () => {
  test('reads status, type name, detail, errors and request id of a problem+json body', () => {
    const error = problemErrorFromAnswer(
      'tasks.list',
      answer(400, {
        type: 'urn:svc:problem:invalid-parameter',
        title: 'Invalid parameter',
        status: 400,
        detail: "sort_by cannot be 'x'",
        instance: '/v1/tasks',
        request_id: 'req-1',
        errors: [{ loc: ['query', 'sort_by'], msg: 'bad', allowed: ['title', 'status'] }],
      }),
    );
    expect(error).toBeInstanceOf(ProblemError);
    expect(error).toMatchObject({
      status: 400,
      type: 'invalid-parameter',
      requestId: 'req-1',
      operation: 'tasks.list',
    });
    expect(error.detail).toBe("sort_by cannot be 'x'");
    expect(error.errors[0]?.allowed).toEqual(['title', 'status']);
    expect(error.is('invalid-parameter')).toBe(true);
    expect(error.message).toContain('tasks.list');
  });

  test.each([
    'urn:svc:problem:precondition-failed',
    'urn:formerco:problem:precondition-failed',
    'https://errors.example/x:problem:precondition-failed',
  ])('a problem type under another prefix (%s) has the same type name', (type) => {
    const error = problemErrorFromAnswer(
      'tasks.update',
      answer(412, { type, title: 't', status: 412, detail: 'stale' }),
    );
    expect(error.type).toBe('precondition-failed');
    expect(error.is('precondition-failed')).toBe(true);
    expect(error.typeUri).toBe(type);
  });

  test('a 422 whose detail is the list of validation errors gives them as errors with loc', () => {
    const items = [{ loc: ['body', 'title'], msg: 'too long', type: 'string_too_long' }];
    const error = problemErrorFromAnswer(
      'tasks.create',
      answer(422, { type: 'urn:svc:problem:validation', title: 'Invalid', status: 422, detail: items }),
    );
    expect(error.type).toBe('validation');
    expect(error.errors).toEqual(items);
    expect(error.detail).toContain('body.title: too long');
  });

  test('keeps Retry-After seconds', () => {
    const error = problemErrorFromAnswer(
      'tasks.list',
      answer(429, { type: 'urn:svc:problem:rate-limit', title: 'Slow down', status: 429 }, { retryAfter: 7 }),
    );
    expect(error.retryAfterSeconds).toBe(7);
  });

  test.each([
    ['an HTML page', '<html><body><h1>502 Bad Gateway</h1></body></html>'],
    ['plain text', 'upstream timed out'],
    ['JSON of another shape', '{"message":"nope"}'],
    ['no body at all', ''],
  ])('an error answer with %s is still a typed error, about:blank', (_name, text) => {
    const error = problemErrorFromAnswer('tasks.list', {
      status: 502,
      contentType: 'text/html',
      text,
      requestId: null,
      retryAfter: null,
    });
    expect(error).toBeInstanceOf(ProblemError);
    expect(error.status).toBe(502);
    expect(error.type).toBe('about:blank');
  });

  test('never carries a token the server echoed back', () => {
    const secret = 'svc_live_0123456789abcdefSECRET';
    const error = problemErrorFromAnswer(
      'tasks.list',
      answer(401, {
        type: 'urn:svc:problem:token-invalid',
        title: 't',
        status: 401,
        detail: `token ${secret} is unknown`,
      }),
      [secret],
    );
    expect(inspect(error, { depth: 10 })).not.toContain('SECRET');
    expect(JSON.stringify(error)).not.toContain('SECRET');
  });
});

describe('a problem is known by its status and type whatever its other members hold', () => {
  const refusedCursor = {
    type: 'urn:svc:problem:invalid-parameter',
    title: 'Invalid parameter',
    status: 400,
    detail: 'cursor is not accepted',
    instance: '/v1/tasks',
    request_id: 'req-1',
    errors: [{ loc: ['query', 'cursor'], msg: 'cursor expired', allowed: null }],
  };

  test('a refused cursor whose item carries allowed: null is the invalid-parameter on cursor', () => {
    const error = problemErrorFromAnswer('tasks.list', answer(400, refusedCursor));
    expect(error).toMatchObject({ status: 400, type: 'invalid-parameter', requestId: 'req-1' });
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]?.loc).toEqual(['query', 'cursor']);
    expect(error.errors[0]?.allowed).toBeNull();
    // The page walker restarts its pass on exactly this error.
    expect(isRefusedCursor(error)).toBe(true);
  });

  test('a refused cursor under the former product name, allowed: null, is recognised as well', () => {
    const error = problemErrorFromAnswer(
      'tasks.list',
      answer(400, { ...refusedCursor, type: 'urn:formerco:problem:invalid-parameter' }),
    );
    expect(error).toMatchObject({ status: 400, type: 'invalid-parameter' });
    expect(isRefusedCursor(error)).toBe(true);
  });

  test.each([
    ['loc: null', { errors: [{ loc: null, msg: 'cursor expired', allowed: null }] }],
    ['no loc', { errors: [{ msg: 'cursor expired' }] }],
    ['no items', { errors: [] }],
  ])('an invalid-parameter that names no parameter (%s) is the refused cursor', (_name, change) => {
    const error = problemErrorFromAnswer('tasks.list', answer(400, { ...refusedCursor, ...change }));
    expect(isRefusedCursor(error)).toBe(true);
  });

  test('an invalid-parameter naming another parameter is not a refused cursor', () => {
    const body = { ...refusedCursor, errors: [{ loc: ['query', 'sort_by'], allowed: ['title'] }] };
    expect(isRefusedCursor(problemErrorFromAnswer('tasks.list', answer(400, body)))).toBe(false);
  });

  const members: [string, Record<string, unknown>][] = [
    ['reason: null in an item', { errors: [{ loc: ['query', 'cursor'], msg: 'x', reason: null }] }],
    ['msg: null in an item', { errors: [{ loc: ['query', 'cursor'], msg: null }] }],
    ['loc: null beside a cursor item', { errors: [{ loc: null, msg: 'x' }, { loc: ['query', 'cursor'] }] }],
    ['an unknown member in an item', { errors: [{ loc: ['query', 'cursor'], hint: { retry: true } }] }],
    ['allowed of the wrong type', { errors: [{ loc: ['query', 'cursor'], allowed: 'asc|desc' }] }],
    ['an item that is not an object', { errors: ['cursor', 7, null, { loc: ['query', 'cursor'] }] }],
    ['mfa: null', { mfa: null }],
    ['mfa of the wrong type', { mfa: 'yes' }],
    ['title: null', { title: null }],
    ['instance: null', { instance: null }],
    ['request_id: null', { request_id: null }],
    ['detail: null', { detail: null }],
    ['status: null', { status: null }],
    ['status absent', { status: undefined }],
    ['status of the wrong type', { status: '400' }],
    ['an unknown top-level member', { retry_hint: [1, 2, 3] }],
  ];
  test.each(members)('%s keeps the invalid-parameter on cursor', (_name, change) => {
    const body = { ...refusedCursor, ...change };
    const error = problemErrorFromAnswer('tasks.list', answer(400, body));
    expect(error).toMatchObject({ status: 400, type: 'invalid-parameter' });
    expect(error.typeUri).toBe('urn:svc:problem:invalid-parameter');
    expect(isRefusedCursor(error)).toBe(true);
  });

  test.each([
    ['errors: null', { errors: null }],
    ['errors of the wrong type', { errors: { loc: ['query', 'cursor'] } }],
  ])('%s is a problem with no items', (_name, change) => {
    const error = problemErrorFromAnswer('tasks.list', answer(400, { ...refusedCursor, ...change }));
    expect(error).toMatchObject({ status: 400, type: 'invalid-parameter', errors: [] });
  });

  test('a member of the wrong type is dropped from its item, the rest of the item stays', () => {
    const error = problemErrorFromAnswer(
      'tasks.list',
      answer(400, {
        ...refusedCursor,
        errors: [{ loc: ['query', 'sort_by'], msg: 7, allowed: ['title'], extra: 'kept' }],
      }),
    );
    expect(error.errors).toEqual([{ loc: ['query', 'sort_by'], allowed: ['title'], extra: 'kept' }]);
  });

  test.each([
    ['absent', undefined],
    ['null', null],
    ['not a string', 42],
  ])('a type that is %s is about:blank (RFC 9457: a missing type means about:blank)', (_name, type) => {
    const error = problemErrorFromAnswer(
      'tasks.list',
      answer(404, { type, title: 'Not found', status: 404, detail: 'no such task' }),
    );
    expect(error).toMatchObject({ status: 404, type: 'about:blank', typeUri: 'about:blank' });
    expect(error.detail).toBe('no such task');
  });

  test('a problem carrying nothing but its type is known by it', () => {
    const error = problemErrorFromAnswer('tasks.list', answer(429, { type: 'urn:svc:problem:rate-limit' }));
    expect(error).toMatchObject({ status: 429, type: 'rate-limit', errors: [], requestId: 'req-header' });
  });

  test('the status is the answer’s HTTP status, the problem’s status member being advisory', () => {
    const { status: _status, ...noStatus } = refusedCursor;
    expect(problemErrorFromAnswer('tasks.list', answer(400, noStatus)).status).toBe(400);
    expect(problemErrorFromAnswer('tasks.list', answer(400, { ...refusedCursor, status: 500 })).status).toBe(
      400,
    );
  });

  test('a problem type under the former product name with null members is still known', () => {
    const error = problemErrorFromAnswer(
      'tasks.update',
      answer(412, {
        type: 'urn:formerco:problem:precondition-failed',
        title: null,
        status: 412,
        detail: null,
        instance: null,
        request_id: null,
      }),
    );
    expect(error).toMatchObject({ status: 412, type: 'precondition-failed', requestId: 'req-header' });
    expect(error.is('precondition-failed')).toBe(true);
  });

  test('a 422 validation problem whose detail list has null members keeps its items', () => {
    const error = problemErrorFromAnswer(
      'tasks.create',
      answer(422, {
        type: 'urn:svc:problem:validation',
        title: 'Invalid',
        status: 422,
        detail: [{ loc: ['body', 'title'], msg: 'too long', type: null }, 'not an item'],
      }),
    );
    expect(error.type).toBe('validation');
    expect(error.errors).toEqual([{ loc: ['body', 'title'], msg: 'too long', type: null }]);
    expect(error.detail).toBe('body.title: too long');
  });
});

describe('redactSecrets', () => {
  test.each([
    ['Authorization: Bearer abc.def.ghi', 'abc.def'],
    ['token svc_test_zzzzzzzzzzzz was refused', 'zzzzzzzz'],
    ['opaque mysecretvalue123 here', 'mysecretvalue123'],
  ])('removes credentials from %j', (text, secret) => {
    expect(redactSecrets(text, ['mysecretvalue123'])).not.toContain(secret);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-01T09:00:00Z');
  test.each([
    ['5', 5],
    ['0', 0],
    ['Sun, 01 Nov 2026 09:00:30 GMT', 30],
    ['soon', null],
    [undefined, null],
  ] as const)('%s gives %s seconds', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });
});

test('a signed-out error says what to do and carries its reason', () => {
  const error = new SignedOutError('tasks.list', 'token-revoked', 'r1');
  expect(error).toMatchObject({ kind: 'signed-out', reason: 'token-revoked' });
  expect(error.message).toMatch(/sign in again/);
});

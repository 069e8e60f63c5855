import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
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

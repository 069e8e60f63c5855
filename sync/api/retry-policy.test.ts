import { describe, expect, test } from 'vitest';
import { backoffDelayMs, describeTransportFailure, isRetryableStatus, isSafeToRepeat } from './retry-policy';

describe('isSafeToRepeat', () => {
  test.each([
    ['GET', {}, true],
    ['DELETE', { 'if-match': '"e1"' }, true],
    ['POST', {}, false],
    ['POST', { 'idempotency-key': 'op-1' }, true],
    ['PATCH', {}, false],
    ['PATCH', { 'if-match': '"e1"', 'idempotency-key': 'op-2' }, true],
    ['PATCH', { 'idempotency-key': '' }, false],
  ] as const)('%s with %j: %s', (method, headers, safe) => {
    expect(isSafeToRepeat(method, headers)).toBe(safe);
  });
});

describe('backoffDelayMs', () => {
  const options = { baseDelayMs: 100, maxDelayMs: 1000 };
  test('grows exponentially between half and all of each step', () => {
    expect(backoffDelayMs(1, { ...options, random: () => 0 })).toBe(50);
    expect(backoffDelayMs(1, { ...options, random: () => 0.999 })).toBeCloseTo(99.95);
    expect(backoffDelayMs(3, { ...options, random: () => 0 })).toBe(200);
  });
  test('never passes the cap', () => {
    expect(backoffDelayMs(20, { ...options, random: () => 0.999 })).toBeLessThanOrEqual(1000);
  });
  test('is spread by the random draw', () => {
    const draws = [0.1, 0.5, 0.9].map((r) => backoffDelayMs(2, { ...options, random: () => r }));
    expect(new Set(draws).size).toBe(3);
  });
});

describe('describeTransportFailure', () => {
  const withCode = (code: string) => Object.assign(new Error('boom'), { code });
  test.each([
    ['ECONNRESET', true, false],
    ['UND_ERR_SOCKET', true, false],
    ['UND_ERR_BODY_TIMEOUT', true, false],
    ['ECONNREFUSED', true, true],
    ['UND_ERR_CONNECT_TIMEOUT', true, true],
    ['UND_ERR_INVALID_ARG', false, false],
  ])('%s: retryable %s, certainly not sent %s', (code, retryable, notSent) => {
    expect(describeTransportFailure(withCode(code))).toMatchObject({ code, retryable, notSent });
  });
  test('finds the code on a wrapped cause', () => {
    const error = new Error('fetch failed', { cause: withCode('ECONNRESET') });
    expect(describeTransportFailure(error).code).toBe('ECONNRESET');
  });
});

test.each([
  [500, 'internal', true],
  [503, 'upload-rejected', true],
  [502, 'about:blank', true],
  [501, 'about:blank', false],
  [409, 'idempotency-key-in-flight', true],
  [409, 'about:blank', false],
  [412, 'precondition-failed', false],
  [422, 'validation', false],
])('status %s %s is retryable: %s', (status, type, retryable) => {
  expect(isRetryableStatus(status, type)).toBe(retryable);
});

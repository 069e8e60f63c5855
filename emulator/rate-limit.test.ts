// Rate limits: X-RateLimit-* on every answer, 429 `rate-limit` with Retry-After
// past the limit, a window that resets by the injected clock, live and test
// tokens each with their own limit and their own bucket.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ManualClock } from './clock';
import { callApi } from './emulator-http';
import { type RunningEmulator, startEmulator } from './start';

let emulator: RunningEmulator;
const clock = new ManualClock();

beforeAll(async () => {
  emulator = await startEmulator({ clock, seedTasks: 20, rateLimit: { live: 5, test: 3, windowMs: 60_000 } });
});
afterAll(async () => {
  await emulator.stop();
});

describe('rate limits', () => {
  test('every answer carries the limit, what remains and seconds to reset; then 429 with Retry-After', async () => {
    const { token } = emulator.control.mintToken({ scopes: ['tasks:read'] });
    const remaining: string[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('5');
      expect(answer.headers.get('x-ratelimit-reset')).toBe('60');
      remaining.push(answer.headers.get('x-ratelimit-remaining') ?? '');
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0']);
    clock.advance(20_000);
    const limited = await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token });
    expect(limited.status).toBe(429);
    expect(limited.body.type).toBe('urn:svc:problem:rate-limit');
    expect(limited.headers.get('retry-after')).toBe('40');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(limited.headers.get('x-ratelimit-reset')).toBe('40');
    clock.advance(40_000);
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token })).status).toBe(200);
  });

  test('errors count and carry the headers too (a 404, a 422)', async () => {
    const { token } = emulator.control.mintToken({ scopes: ['tasks:write'] });
    const missing = await callApi(emulator, 'GET', '/v1/tasks/tsk_nope', { token });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-ratelimit-remaining')).toBe('4');
    const invalid = await callApi(emulator, 'POST', '/v1/tasks', { token, body: {} });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get('x-ratelimit-remaining')).toBe('3');
  });

  test('a test token has its own, lower limit', async () => {
    const { token } = emulator.control.mintToken({ scopes: ['tasks:read'], kind: 'test' });
    for (let i = 0; i < 3; i++)
      expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token })).status).toBe(200);
    const limited = await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
  });

  test('each token has its own bucket', async () => {
    const a = emulator.control.mintToken({ scopes: ['tasks:read'] }).token;
    const b = emulator.control.mintToken({ scopes: ['tasks:read'] }).token;
    for (let i = 0; i < 5; i++) await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token: a });
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token: a })).status).toBe(429);
    expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token: b })).status).toBe(200);
  });

  test('unauthenticated answers carry the headers as well (the address’s bucket)', async () => {
    const health = await callApi(emulator, 'GET', '/v1/health', { token: null });
    expect(health.headers.get('x-ratelimit-limit')).not.toBeNull();
    const refused = await callApi(emulator, 'GET', '/v1/tasks', { token: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('x-ratelimit-remaining')).not.toBeNull();
  });

  test('the limits can be changed while running', async () => {
    emulator.control.setRateLimit({ live: 1 });
    try {
      const { token } = emulator.control.mintToken({ scopes: ['tasks:read'] });
      expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token })).status).toBe(200);
      expect((await callApi(emulator, 'GET', '/v1/tasks?limit=1', { token })).status).toBe(429);
    } finally {
      emulator.control.setRateLimit({ live: 5 });
    }
  });
});

describe('the contract’s defaults', () => {
  test('600 a minute for a live token and 60 for a test token', async () => {
    const defaults = await startEmulator({ seedTasks: 5 });
    try {
      const live = await callApi(defaults, 'GET', '/v1/tasks?limit=1');
      expect(live.headers.get('x-ratelimit-limit')).toBe('600');
      const test = await callApi(defaults, 'GET', '/v1/tasks?limit=1', { token: defaults.tokens.test });
      expect(test.headers.get('x-ratelimit-limit')).toBe('60');
    } finally {
      await defaults.stop();
    }
  });
});

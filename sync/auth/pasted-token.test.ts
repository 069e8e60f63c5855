import { describe, expect, test } from 'vitest';
import { PastedTokenRefusedError } from './auth-errors';
import { classifyPastedToken } from './pasted-token';

const SECRET = 'AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde';

describe('classifyPastedToken', () => {
  test.each([
    [`svc_live_${SECRET}`, 'live', false, false],
    [`svc_test_${SECRET}`, 'test', true, false],
    [`tsk_live_${SECRET}`, 'live', false, true],
    [`tsk_test_${SECRET}`, 'test', true, true],
  ])('recognises %s', (token, kind, readOnly, legacy) => {
    expect(classifyPastedToken(token)).toEqual({ token, kind, readOnly, legacy });
  });

  test('forgives surrounding space and a copied Bearer label', () => {
    expect(classifyPastedToken(`  Bearer svc_live_${SECRET}\n`).token).toBe(`svc_live_${SECRET}`);
  });

  test.each([
    ['', 'empty'],
    ['   \n', 'empty'],
    [`sk_live_${SECRET}`, 'unknown-prefix'],
    [`SVC_LIVE_${SECRET}`, 'unknown-prefix'],
    ['svcc_desktop', 'unknown-prefix'],
    ['hunter2', 'unknown-prefix'],
    ['svc_live_', 'malformed'],
    ['svc_live_short', 'malformed'],
    [`svc_live_${SECRET} trailing`, 'malformed'],
    [`svc_test_${SECRET.slice(0, 20)}!${SECRET.slice(20)}`, 'malformed'],
  ])('refuses %j as %s with a clear message', (pasted, reason) => {
    const error = (() => {
      try {
        classifyPastedToken(pasted);
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(PastedTokenRefusedError);
    expect(error).toMatchObject({ type: 'pasted-token-refused', reason });
    // The message explains; it never repeats what was pasted (it might be a secret of some other kind).
    if (pasted.trim()) expect((error as Error).message).not.toContain(pasted.trim());
  });

  test('the unknown-prefix message names the prefixes that are accepted', () => {
    expect(() => classifyPastedToken('abc')).toThrow(/svc_live_.*svc_test_/);
  });
});

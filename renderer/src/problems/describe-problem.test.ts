import { describe, expect, test } from 'vitest';
import { describeProblem } from './describe-problem';

// The types a person can meet: the service's problem types that reach the screens, sign-in and
// account errors, the mirror's, and the bridge's own.
const TYPES_PEOPLE_MEET = [
  'token-invalid',
  'token-expired',
  'token-revoked',
  'insufficient-scope',
  'test-token-read-only',
  'unsafe-id',
  'token-policy',
  'rate-limit',
  'validation',
  'invalid-parameter',
  'precondition-failed',
  'mfa-required',
  'email-unverified',
  'network',
  'invalid-response',
  'pasted-token-refused',
  'oauth-error',
  'issuer-mismatch',
  'attempt-ended',
  'auth-server-unavailable',
  'auth-url-refused',
  'loopback-unavailable',
  'browser-open-failed',
  'token-response-invalid',
  'secret-store-failed',
  'account-mismatch',
  'account-not-found',
  'server-settings-refused',
  'registry-unreadable',
  'signed-out',
  'read-only',
  'not-found',
  'invalid-input',
  'unavailable',
  'demo-failed',
  'storage-locked',
  'storage-full',
  'storage-read-only',
  'storage-corrupt',
  'link-malformed',
  'link-unsupported',
  'link-task-not-found',
  'link-unavailable',
];

describe('describeProblem', () => {
  test.each(TYPES_PEOPLE_MEET)('%s has words of its own, not the fallback', (type) => {
    const words = describeProblem(type);
    expect(words.title).not.toBe(describeProblem('internal').title);
    expect(words.detail.length).toBeGreaterThan(10);
  });

  test('an action that helps always has a label to show', () => {
    for (const type of TYPES_PEOPLE_MEET) {
      const words = describeProblem(type);
      expect(words.action === 'none' || words.actionLabel !== null).toBe(true);
    }
  });

  test('a permission the sign-in lacks is mended by signing in again (through the browser, or with another token), not by a token alone', () => {
    const words = describeProblem('insufficient-scope');
    expect(words).toMatchObject({ action: 'sign-in-again', actionLabel: 'Sign in again' });
    expect(words.detail).toContain('sign in again');
  });

  test('an unknown type is told as a problem inside the app, with a retry', () => {
    expect(describeProblem('something-new')).toMatchObject({ action: 'retry', actionLabel: 'Try again' });
  });

  test('an unknown storage problem still says it is about the data on this computer', () => {
    expect(describeProblem('storage-io').title).toBe('The local copy cannot be used');
  });
});

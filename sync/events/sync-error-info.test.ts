import { describe, expect, test } from 'vitest';
import { NetworkError } from '../api/errors';
import { SignInServerUnreachableError } from '../auth/api-credentials';
import { errorInfo } from './sync-error-info';

describe('what the screens learn of a failed sync step', () => {
  test('the sign-in server out of reach is told apart from the service out of reach', () => {
    const info = errorInfo(
      new SignInServerUnreachableError('tasks.list', 'AUTH_SERVER_UNREACHABLE', 'https://auth.example', null),
    );
    expect(info).toMatchObject({ kind: 'network', type: 'auth-server-unavailable' });
    expect(info.message).toContain('https://auth.example');
    expect(errorInfo(new NetworkError('tasks.list', 'ECONNRESET', 'reset', 3))).toMatchObject({
      kind: 'network',
      type: null,
    });
  });
});

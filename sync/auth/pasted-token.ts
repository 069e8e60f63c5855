// Access tokens a person pastes instead of signing in through the browser:
// recognise live and test tokens (a test token signs in read-only) and refuse
// anything else before it is ever sent.
//
// The seam: `classifyPastedToken(text)` here, then `staticCredentials(token)`
// from sync/api/credentials.ts (a pasted token cannot be renewed, so expiry
// signs out), then `GET /v1/me` through the API client to learn whose token it
// is before the account is kept.
import { PastedTokenRefusedError } from './auth-errors';

export type TokenKind = 'live' | 'test';

/**
 * Prefixes by kind. The contract says tokens made before the 2026-10-03 rename
 * "under an earlier prefix" still authenticate but does not name it; the
 * emulator (emulator/identity/) stands `tsk_` in for it, and so do we.
 * When the real former prefix is known it replaces `tsk_` here.
 */
export const TOKEN_PREFIXES: readonly { prefix: string; kind: TokenKind; legacy: boolean }[] = [
  { prefix: 'svc_live_', kind: 'live', legacy: false },
  { prefix: 'svc_test_', kind: 'test', legacy: false },
  { prefix: 'tsk_live_', kind: 'live', legacy: true },
  { prefix: 'tsk_test_', kind: 'test', legacy: true },
];

/** What follows the prefix: base64url. Lenient on length, since only the service knows the exact format. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{16,1024}$/;

export interface PastedToken {
  /** The token itself, trimmed (and without a pasted `Bearer `). */
  token: string;
  kind: TokenKind;
  /** Whether this token cannot write: test tokens read but never write (403 `test-token-read-only`). */
  readOnly: boolean;
  /** Made under the service's former name. */
  legacy: boolean;
}

/** Recognise a pasted access token, or throw PastedTokenRefusedError saying what is wrong. */
export function classifyPastedToken(pasted: string): PastedToken {
  // People copy tokens out of headers and terminals: forgive surrounding space and a `Bearer ` label.
  const token = pasted.trim().replace(/^Bearer\s+/i, '');
  if (token === '') throw new PastedTokenRefusedError('empty');
  const known = TOKEN_PREFIXES.find(({ prefix }) => token.startsWith(prefix));
  if (!known) throw new PastedTokenRefusedError('unknown-prefix');
  if (!SECRET_PATTERN.test(token.slice(known.prefix.length))) throw new PastedTokenRefusedError('malformed');
  return { token, kind: known.kind, readOnly: known.kind === 'test', legacy: known.legacy };
}

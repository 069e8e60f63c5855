// Whether the headless command may queue a kind's write: not when the sign-in
// `login` kept was not granted the kind's scope, nor when the service already
// refused that scope to a change waiting in the outbox (a pasted token's
// scopes are known only that way). Nothing is queued that is known to be refused.
import type { Mirror } from '../../db/mirror';
import { scopeCovers } from '../auth/scopes';
import { pushKindOf } from '../push/kinds/registry';
import type { StoredLogin } from './login-command';

export interface RefusedWrite {
  scope: string;
  /** In words, after "this sign-in may not change sprints (…)". */
  why: string;
}

/** The scope a blocked operation was refused for, when the service named one. */
export function refusedScopeOf(problem: unknown): string | null {
  const record = problem as { type?: unknown; errors?: { required?: unknown }[] } | null;
  if (record?.type !== 'insufficient-scope') return null;
  const required = record.errors?.[0]?.required;
  return typeof required === 'string' ? required : null;
}

export function refusedWrite(
  login: StoredLogin | null,
  mirror: Mirror,
  entityType: string,
): RefusedWrite | null {
  const scope = pushKindOf(entityType).writeScope;
  const granted = login?.granted_scopes;
  if (granted != null && !scopeCovers(granted, scope)) return { scope, why: `it was not granted ${scope}` };
  const refused = mirror.outbox.list(['blocked']).some((op) => refusedScopeOf(op.lastProblem) === scope);
  return refused ? { scope, why: `the service refused ${scope}` } : null;
}

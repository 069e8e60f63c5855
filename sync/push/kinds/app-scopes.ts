// What the app asks a sign-in for, and which of its writable kinds a grant
// leaves read-only. Derived from the kinds' `writeScope`s, so a new kind asks
// for its own scope, and the reads its pull needs that no write implies.
import { scopeCovers } from '../../auth/scopes';
import { PUSH_KINDS } from './registry';

/** What the pull reads: tasks, projects (goals, milestones), teams (sprints) and the organization's members. */
const READ_SCOPES: readonly string[] = ['tasks:read', 'projects:read', 'teams:read', 'members:read'];

/**
 * The scopes a sign-in asks for: the pull's reads and every kind's write
 * scope. Each read is asked for although a write implies it: a person who
 * declines `teams:write` on the consent page still grants `teams:read`, and
 * the app still shows the teams and their sprints.
 */
export const APP_SCOPES: readonly string[] = [
  ...new Set([...READ_SCOPES, ...PUSH_KINDS.map((kind) => kind.writeScope)]),
];

/**
 * The kinds (outbox entity types) a token with `granted` may not write, each
 * with the scope it lacks. `null` (a pasted token, whose scopes the contract
 * gives no way to read) is taken as all granted until a 403 says otherwise.
 */
export function kindsNotGranted(granted: readonly string[] | null): Map<string, string> {
  const refused = new Map<string, string>();
  if (granted === null) return refused;
  for (const kind of PUSH_KINDS) {
    if (!scopeCovers(granted, kind.writeScope)) refused.set(kind.entityType, kind.writeScope);
  }
  return refused;
}

/** The kinds (outbox entity types) whose writes need `scope`. */
export function kindsNeeding(scope: string): string[] {
  return PUSH_KINDS.filter((kind) => kind.writeScope === scope).map((kind) => kind.entityType);
}

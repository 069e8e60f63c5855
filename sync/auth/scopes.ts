// The contract's scopes and what implies what (service-api.md, "Scopes", rule 1):
// `admin` implies every scope, `<ns>:write` implies `<ns>:read`, and
// `org:read` (so also `org:write`) implies `members:read`.

/** Whether a token granted `granted` may do what needs `needed`. */
export function scopeCovers(granted: readonly string[], needed: string): boolean {
  return granted.some((scope) => implies(scope, needed));
}

/** The scopes of `needed` that `granted` does not cover, in their order. */
export function scopesMissing(granted: readonly string[], needed: readonly string[]): string[] {
  return needed.filter((scope) => !scopeCovers(granted, scope));
}

/**
 * `scopes` without those another of them implies, duplicates dropped: what a
 * sign-in asks for (`tasks:write` rather than `tasks:write tasks:read`).
 */
export function withoutImplied(scopes: readonly string[]): string[] {
  const unique = [...new Set(scopes)];
  return unique.filter((scope) => !unique.some((other) => other !== scope && implies(other, scope)));
}

function implies(held: string, needed: string): boolean {
  if (held === needed || held === 'admin') return true;
  const [namespace, level] = held.split(':');
  if (level === 'write' && needed === `${namespace}:read`) return true;
  if (needed === 'members:read') return held === 'org:read' || held === 'org:write';
  return false;
}

// The contract's scopes and what implies what (service-api.md, "Scopes", rule 1):
// `admin` implies every scope, `<ns>:write` implies `<ns>:read`, and
// `org:read` (so also `org:write`) implies `members:read`.

/** Whether a token granted `granted` may do what needs `needed`. */
export function scopeCovers(granted: readonly string[], needed: string): boolean {
  return granted.some((scope) => implies(scope, needed));
}

function implies(held: string, needed: string): boolean {
  if (held === needed || held === 'admin') return true;
  const [namespace, level] = held.split(':');
  if (level === 'write' && needed === `${namespace}:read`) return true;
  if (needed === 'members:read') return held === 'org:read' || held === 'org:write';
  return false;
}

// Ids kept as hints, in a fraction of the memory of the ids themselves: each
// is kept as a 30-bit hash (a small integer, no string), so a hint may be
// false (another id of the same hash). For what is only worth a shortcut: a
// false hint must cost the shortcut, never the outcome. A first sync at a
// million tasks kept ~200 000 ids so (the person's own tasks, PageApplication).

/** FNV-1a over the id's UTF-16 code units, cut to 30 bits: V8 keeps such a number unboxed. */
export function hashOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let at = 0; at < id.length; at++) {
    hash ^= id.charCodeAt(at);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash & 0x3fffffff;
}

export class IdHints {
  private readonly hashes = new Set<number>();

  add(id: string): void {
    this.hashes.add(hashOf(id));
  }

  /** Whether `id` may have been added (and forgets it, with any id of the same hash). */
  take(id: string): boolean {
    return this.hashes.delete(hashOf(id));
  }

  clear(): void {
    this.hashes.clear();
  }
}

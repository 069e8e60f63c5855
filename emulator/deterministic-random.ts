// A small seeded pseudo-random generator (sfc32), so that the same seed gives
// the same organization, ids, texts and dates on every run.

export class DeterministicRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    // splitmix32 spreads a small integer seed over the four words of state.
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max] (inclusive). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.float() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Up to `count` distinct items, in the list's order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const chosen = new Set<number>();
    const want = Math.min(count, items.length);
    while (chosen.size < want) chosen.add(Math.floor(this.float() * items.length));
    return [...chosen].sort((x, y) => x - y).map((i) => items[i] as T);
  }

  /** `length` characters of lower-case base 32 (no vowels that spell words by accident). */
  token(length: number): string {
    const alphabet = '0123456789bcdfghjkmnpqrstvwxyz';
    let out = '';
    for (let i = 0; i < length; i++) out += alphabet[this.uint32() % alphabet.length];
    return out;
  }

  /** A version-4-shaped UUID. */
  uuid(): string {
    const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
    const a = this.uint32();
    const b = this.uint32();
    const c = this.uint32();
    const d = this.uint32();
    return (
      `${hex(a, 8)}-${hex(b >>> 16, 4)}-${hex(((b & 0x0fff) | 0x4000) >>> 0, 4)}-` +
      `${hex(((c >>> 16) & 0x3fff) | 0x8000, 4)}-${hex(c & 0xffff, 4)}${hex(d, 8)}`
    );
  }
}

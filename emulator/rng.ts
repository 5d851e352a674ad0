/**
 * A small seeded pseudo-random generator (mulberry32). Its whole state is one
 * 32-bit integer, so it can be persisted with the rest of the emulator state and
 * a restart continues the same sequence.
 */
export class Rng {
  constructor(public state: number) {
    this.state = state >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  /** `n` lower-case hex digits. */
  hex(n: number): string {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[this.int(16)];
    return s;
  }

  /** A version-4 UUID drawn from this generator (deterministic under a seed). */
  uuid(): string {
    const h = this.hex(32).split("");
    h[12] = "4";
    h[16] = "89ab"[this.int(4)];
    const s = h.join("");
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** Derives independent stream seeds from one user seed, so ids do not shift when faults are rolled. */
export function deriveSeed(seed: number, stream: number): number {
  const r = new Rng((seed ^ Math.imul(stream + 1, 0x9e3779b1)) >>> 0);
  r.next();
  return r.state;
}
